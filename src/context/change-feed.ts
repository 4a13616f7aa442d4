/**
 * Change notifications (`list_changed`, `resources/updated`) travel through the bus, so that a
 * `notify.toolsChanged()` on any instance reaches every listening stream: legacy GET streams and,
 * in the modern era, `subscriptions/listen` streams.
 */
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { Bus } from "../types/stores.ts";

/** The bus channel of change notifications. */
export const CHANGES_CHANNEL = "mcp-h3:changes";

export interface ChangeMessage {
  method: string;
  params?: JsonObject;
}

export type ChangeListener = (change: ChangeMessage) => void;

export class ChangeFeed {
  readonly bus: Bus;
  #listeners = new Set<ChangeListener>();
  /** The bus subscription, made on first use; resolves with its unsubscribe. */
  #subscribed: Promise<() => void> | undefined;

  constructor(bus: Bus) {
    this.bus = bus;
  }

  async publish(method: string, params?: JsonObject): Promise<void> {
    await this.bus.publish(CHANGES_CHANNEL, params === undefined ? { method } : { method, params });
  }

  /**
   * Adds a local listener and returns its removal; the bus subscription is made on first use (no
   * I/O at startup). When the bus fails to subscribe, this rejects, nothing is kept, and the next
   * call tries again.
   */
  async listen(listener: ChangeListener): Promise<() => void> {
    this.#subscribed ??= this.bus
      .subscribe(CHANGES_CHANNEL, (message) => this.#deliver(message))
      .catch((error: unknown) => {
        this.#subscribed = undefined;
        throw error;
      });
    await this.#subscribed;
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Removes every listener and the bus subscription (the handler closes). */
  close(): void {
    this.#listeners.clear();
    const subscribed = this.#subscribed;
    this.#subscribed = undefined;
    subscribed?.then(
      (unsubscribe) => {
        try {
          unsubscribe();
        } catch {
          // Closing: nothing is left to tell.
        }
      },
      () => {},
    );
  }

  #deliver(message: unknown): void {
    const change = message as ChangeMessage;
    if (typeof change?.method !== "string") return;
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // One failing listener must not keep the change from the others.
      }
    }
  }
}
