/**
 * A stream's end when the token that opened it expires: one timer, armed at the expiry however far
 * away it is (setTimeout fires at once, with a warning, past its signed 32-bit range of about 24.8
 * days, so a farther expiry is reached in steps).
 */

/** The longest delay setTimeout keeps: 2^31 - 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `expire` once at `atMs` (milliseconds since the epoch; at the next turn when it has passed).
 * The returned function clears the timer; at most one timer is pending at any time.
 *
 * @example
 * const clear = armExpiry(identity.expiresAt * 1000, () => sink.close());
 * sink.closed.addEventListener("abort", clear, { once: true });
 */
export function armExpiry(atMs: number, expire: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    const left = atMs - Date.now();
    timer = left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(expire, Math.max(0, left));
    // The stream's connection keeps a Node process alive, not its expiry.
    (timer as { unref?: () => void }).unref?.();
  };
  arm();
  return () => clearTimeout(timer);
}
