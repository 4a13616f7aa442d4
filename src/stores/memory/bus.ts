/** The default bus: delivers published messages to subscribers in this process. */
import type { Bus } from "../../types/stores.ts";

/**
 * In-process publish/subscribe. Enough for one instance; use `mcp-h3/redis` to reach others.
 */
export class MemoryBus implements Bus {
  #channels = new Map<string, Set<(message: unknown) => void>>();

  async publish(channel: string, message: unknown): Promise<void> {
    const listeners = this.#channels.get(channel);
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(message);
      } catch {
        // One failing subscriber must not stop delivery to the others.
      }
    }
  }

  async subscribe(channel: string, listener: (message: unknown) => void): Promise<() => void> {
    let listeners = this.#channels.get(channel);
    if (!listeners) this.#channels.set(channel, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#channels.delete(channel);
    };
  }
}
