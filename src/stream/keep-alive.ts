/**
 * One shared clock for responses that have not answered yet. A call that runs longer than the
 * keep-alive interval without emitting anything is upgraded to SSE, so its connection carries
 * keep-alive comments and proxies with idle timeouts do not cut it. One timer serves every
 * pending response (none at all while nothing is pending), instead of a timer per request.
 *
 * Every request enters and leaves the watch, so it is an intrusive linked list: linking and
 * unlinking touch two pointers and allocate nothing (a Set's hashing showed in profiles).
 */

export interface Waiting {
  /** When the response started waiting (ms since the epoch). */
  readonly since: number;
  readonly keepAliveMs: number;
  /** Called once the response has waited `keepAliveMs`. */
  overdue(): void;
  /** List links, owned by this module. */
  waitPrev: Waiting | undefined;
  waitNext: Waiting | undefined;
  waitListed: boolean;
}

let head: Waiting | undefined;
let timer: ReturnType<typeof setInterval> | undefined;
let tickMs = 0;

function tick(): void {
  const now = Date.now();
  let entry = head;
  while (entry) {
    const next = entry.waitNext;
    if (now - entry.since >= entry.keepAliveMs) {
      stopWaiting(entry);
      entry.overdue();
    }
    entry = next;
  }
  if (head === undefined && timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** Watches a pending response until {@link stopWaiting}. */
export function startWaiting(entry: Waiting): void {
  entry.waitPrev = undefined;
  entry.waitNext = head;
  if (head) head.waitPrev = entry;
  head = entry;
  entry.waitListed = true;
  const wanted = Math.max(10, Math.floor(entry.keepAliveMs / 2));
  if (timer !== undefined && wanted >= tickMs) return;
  if (timer !== undefined) clearInterval(timer);
  tickMs = wanted;
  timer = setInterval(tick, tickMs);
  (timer as { unref?: () => void }).unref?.();
}

export function stopWaiting(entry: Waiting): void {
  if (!entry.waitListed) return;
  entry.waitListed = false;
  const { waitPrev: prev, waitNext: next } = entry;
  if (prev) prev.waitNext = next;
  else head = next;
  if (next) next.waitPrev = prev;
  entry.waitPrev = entry.waitNext = undefined;
}
