/**
 * Keeping a task's work alive on hosts that end a request's work with its response (Cloudflare
 * Workers, Vercel's edge): the platform's `waitUntil`, as the host exposes it on the event. h3 v2
 * has `event.waitUntil` (srvx hands it the platform's); the fetch entry sets it from the Worker's
 * `ctx`; Nitro on h3 v1 puts it on `event.context`. On Node nothing is needed: the process lives on.
 * The platform's own limits still apply (a Worker's `waitUntil` runs about 30 s after the response).
 */
import type { H3Event } from "h3";

type WaitUntil = (promise: Promise<unknown>) => void;

interface MaybeWaiting {
  waitUntil?: unknown;
  req?: { waitUntil?: unknown };
  context?: { waitUntil?: unknown; cloudflare?: { context?: { waitUntil?: unknown } } };
}

/** Hands `work` to the host's `waitUntil`, when the host has one (a no-op elsewhere). */
export function keepAlive(event: H3Event, work: Promise<unknown>): void {
  const host = event as unknown as MaybeWaiting;
  const candidates: [unknown, unknown][] = [
    [host.req?.waitUntil, host.req],
    [host.context?.waitUntil, host.context],
    [host.context?.cloudflare?.context?.waitUntil, host.context?.cloudflare?.context],
  ];
  for (const [waitUntil, self] of candidates) {
    if (typeof waitUntil === "function") {
      // Never let a host's failure reach the task: the work is owned elsewhere.
      try {
        (waitUntil as WaitUntil).call(
          self,
          work.catch(() => undefined),
        );
      } catch {
        // The host refused (e.g. called after its context ended): the work goes on regardless.
      }
      return;
    }
  }
}
