/**
 * The operations of one response channel, run one after another so that messages keep their order
 * across the awaits of an event log. No operation's failure is passed on: it is reported to
 * `onFailure`, so every promise the queue hands out resolves, and nobody has to own it.
 */

/** One operation of the queue: writing a message, opening or resuming a stream. */
export type Operation = () => void | Promise<void>;

export class SerialQueue {
  #tail: Promise<void> | undefined;
  #pending = 0;
  readonly #onFailure: (error: unknown) => void;

  constructor(onFailure: (error: unknown) => void) {
    this.#onFailure = onFailure;
  }

  /** Operations queued and not yet done. */
  get pending(): number {
    return this.#pending;
  }

  /** Runs `operation` after the ones before it; resolves once it ran, never rejects. */
  run(operation: Operation): Promise<void> {
    this.#pending += 1;
    const next = (this.#tail ?? Promise.resolve())
      .then(operation)
      .catch(this.#onFailure)
      .finally(() => (this.#pending -= 1));
    this.#tail = next;
    return next;
  }

  /** Runs `operation` after the ones before it, for a caller that does not wait for it. */
  post(operation: Operation): void {
    // `run` never rejects; the catch only makes that visible where its promise is dropped.
    this.run(operation).catch(this.#onFailure);
  }
}
