/**
 * The operations of one response channel, run one after another so that messages keep their order
 * across the awaits of an event log. No operation's failure is passed on: it is reported to
 * `onFailure`, so every promise the queue hands out resolves, and nobody has to own it.
 */
export type Task = () => void | Promise<void>;

export class TaskQueue {
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

  /** Runs `task` after the ones before it; resolves once it ran, never rejects. */
  run(task: Task): Promise<void> {
    this.#pending += 1;
    const next = (this.#tail ?? Promise.resolve())
      .then(task)
      .catch(this.#onFailure)
      .finally(() => (this.#pending -= 1));
    this.#tail = next;
    return next;
  }

  /** Runs `task` after the ones before it, for a caller that does not wait for it. */
  post(task: Task): void {
    // `run` never rejects; the catch only makes that visible where its promise is dropped.
    this.run(task).catch(this.#onFailure);
  }
}
