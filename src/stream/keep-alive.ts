/**
 * One shared clock for responses that have not answered yet. A call that runs longer than the
 * keep-alive interval without emitting anything is upgraded to SSE, so its connection carries
 * keep-alive comments and proxies with idle timeouts do not cut it. One timer serves every
 * pending response (none at all while nothing is pending), instead of a timer per request.
 *
 * Every request enters and leaves the watch, so it is an intrusive linked list: linking and
 * unlinking touch two pointers and allocate nothing (a Set's hashing showed in profiles). The
 * links are private fields of the base class a watched response extends, so only this class
 * moves them; extending it costs no object of its own per response, as a member would.
 */
/** The first watched response; the list is this module's, shared by every response. */
let head: KeepAliveWatched | undefined;
let timer: ReturnType<typeof setInterval> | undefined;
let tickMs = 0;

export abstract class KeepAliveWatched {
  /** When the response started waiting (ms since the epoch). */
  readonly #since: number = Date.now();
  #keepAliveMs = 0;
  #prev: KeepAliveWatched | undefined = undefined;
  #next: KeepAliveWatched | undefined = undefined;
  #listed = false;

  /** Called once the response has waited its keep-alive interval without leaving the watch. */
  abstract overdue(): void;

  /** Watches this response until {@link KeepAliveWatched.stopWaiting}; `overdue` after `keepAliveMs`. */
  protected startWaiting(keepAliveMs: number): void {
    this.#keepAliveMs = keepAliveMs;
    this.#prev = undefined;
    this.#next = head;
    if (head) head.#prev = this;
    // oxlint-disable-next-line typescript/no-this-alias -- the list's head is this response, not an alias
    head = this;
    this.#listed = true;
    const wanted = Math.max(10, Math.floor(keepAliveMs / 2));
    if (timer !== undefined && wanted >= tickMs) return;
    if (timer !== undefined) clearInterval(timer);
    tickMs = wanted;
    timer = setInterval(KeepAliveWatched.#tick, wanted);
    (timer as { unref?: () => void }).unref?.();
  }

  /** Leaves the watch (once answered or finished); a no-op when not watched. */
  protected stopWaiting(): void {
    if (!this.#listed) return;
    this.#listed = false;
    const prev = this.#prev;
    const next = this.#next;
    if (prev) prev.#next = next;
    else head = next;
    if (next) next.#prev = prev;
    this.#prev = this.#next = undefined;
  }

  static #tick(this: void): void {
    const now = Date.now();
    let entry = head;
    while (entry) {
      const next = entry.#next;
      if (now - entry.#since >= entry.#keepAliveMs) {
        entry.stopWaiting();
        entry.overdue();
      }
      entry = next;
    }
    if (head === undefined && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  }
}
