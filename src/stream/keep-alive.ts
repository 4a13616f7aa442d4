/**
 * One shared clock for responses that have not answered yet. A call that runs longer than the
 * keep-alive interval without emitting anything is upgraded to SSE, so its connection carries
 * keep-alive comments and proxies with idle timeouts do not cut it. One timer serves every
 * pending response (none at all while nothing is pending), instead of a timer per request.
 */

export interface Waiting {
  /** When the response started waiting (ms since the epoch). */
  readonly since: number;
  readonly keepAliveMs: number;
  /** Called once the response has waited `keepAliveMs`. */
  overdue(): void;
}

const waiting = new Set<Waiting>();
let timer: ReturnType<typeof setInterval> | undefined;
let tickMs = 0;

function tick(): void {
  const now = Date.now();
  for (const entry of waiting) {
    if (now - entry.since >= entry.keepAliveMs) {
      waiting.delete(entry);
      entry.overdue();
    }
  }
  if (waiting.size === 0 && timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** Watches a pending response until {@link stopWaiting}. */
export function startWaiting(entry: Waiting): void {
  waiting.add(entry);
  const wanted = Math.max(10, Math.floor(entry.keepAliveMs / 2));
  if (timer !== undefined && wanted >= tickMs) return;
  if (timer !== undefined) clearInterval(timer);
  tickMs = wanted;
  timer = setInterval(tick, tickMs);
  (timer as { unref?: () => void }).unref?.();
}

export function stopWaiting(entry: Waiting): void {
  waiting.delete(entry);
}
