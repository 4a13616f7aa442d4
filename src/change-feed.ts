/**
 * Change notifications (`list_changed`, `resources/updated`) travel through the bus, so that a
 * `notify.toolsChanged()` on any instance reaches every listening stream: legacy GET streams and,
 * in the modern era, `subscriptions/listen` streams.
 */
import type { JsonObject } from "./protocol/jsonrpc.ts";
import type { Bus } from "./stores/types.ts";

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
  #subscribed: Promise<unknown> | undefined;

  constructor(bus: Bus) {
    this.bus = bus;
  }

  async publish(method: string, params?: JsonObject): Promise<void> {
    await this.bus.publish(CHANGES_CHANNEL, params === undefined ? { method } : { method, params });
  }

  /** Adds a local listener; the bus subscription is made on first use (no I/O at startup). */
  async listen(listener: ChangeListener): Promise<() => void> {
    this.#listeners.add(listener);
    this.#subscribed ??= this.bus.subscribe(CHANGES_CHANNEL, (message) => this.#deliver(message));
    await this.#subscribed;
    return () => this.#listeners.delete(listener);
  }

  #deliver(message: unknown): void {
    const change = message as ChangeMessage;
    if (typeof change?.method !== "string") return;
    for (const listener of this.#listeners) listener(change);
  }
}
