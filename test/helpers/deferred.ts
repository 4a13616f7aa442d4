/** Deferred promises: a test waits on, or releases, what a handler does. */

/** A promise with its `resolve` exposed. */
export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
}

/** A new deferred, not yet resolved. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
