/**
 * When this instance last moved each session in the Redis index by last use, so that a session in
 * steady use costs the index one write per {@link INDEX_TOUCH_MS}, not one per request (the key's
 * own TTL is still started again by every read). Bounded: past {@link MAX_REMEMBERED} sessions the
 * one remembered longest is forgotten, which only costs it an index write on its next read.
 *
 * Why: a speed change, measured with `redis_legacy_vs_memory` (legacy in-session `tools/call`, c=32,
 * Redis stores × memory stores; `node bench/run.mjs --only=redis`, median of 5 paired ratios). With
 * the script on every read: 0.466 in a full quiet `npm run bench`; a plain GETEX between index
 * writes: 0.615 and 0.512 in two runs of the same machine (Redis spends about 5 µs on the script,
 * well under 1 µs on GETEX, and the c=32 requests of the bench all wait on the one Redis).
 * The price is an order of use exact to a second, and a sweep that waits that second longer.
 */

/** How long after an index write for a session another one is left out. */
export const INDEX_TOUCH_MS = 1_000;

/** Most sessions remembered. */
const MAX_REMEMBERED = 10_000;

export class IndexTouches {
  /** Session id → time of this instance's last index write for it, oldest first. */
  readonly #writtenAt = new Map<string, number>();

  /** Whether a read of the session at `now` should move it in the index. */
  due(id: string, now: number): boolean {
    const last = this.#writtenAt.get(id);
    return last === undefined || now - last >= INDEX_TOUCH_MS || now < last;
  }

  /** The session was moved in the index at `now`. */
  written(id: string, now: number): void {
    this.#writtenAt.delete(id);
    if (this.#writtenAt.size >= MAX_REMEMBERED) {
      const oldest = this.#writtenAt.keys().next().value;
      if (oldest !== undefined) this.#writtenAt.delete(oldest);
    }
    this.#writtenAt.set(id, now);
  }

  /** The session ended or is unknown: its next read (if any) writes again. */
  forget(id: string): void {
    this.#writtenAt.delete(id);
  }
}
