/**
 * A Durable Object has one alarm. The object asks for it at the earliest time something is due
 * (a session's TTL, a task's TTL or lease), and only writes it when
 * that is earlier than the alarm already set: a request whose due times did not move costs no
 * storage write.
 */
import type { DurableObjectStorage } from "./platform.ts";

export class ObjectAlarm {
  readonly #storage: DurableObjectStorage;
  /** The alarm set, null when none; undefined until read from storage (once per object's life). */
  #at: number | null | undefined;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  /** Makes sure the alarm fires at `time` or before (nothing for undefined). */
  async atMost(time: number | undefined): Promise<void> {
    if (time === undefined) return;
    // Not `??=`: null (none set: it just fired) is known already; only undefined is read.
    if (this.#at === undefined) this.#at = await this.#storage.getAlarm();
    if (this.#at !== null && this.#at <= time) return;
    this.#at = time;
    await this.#storage.setAlarm(time);
  }

  /** The alarm fired: none is set until asked again. */
  fired(): void {
    this.#at = null;
  }
}
