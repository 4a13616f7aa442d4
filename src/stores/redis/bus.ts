/**
 * A {@link Bus} on Redis pub/sub: list changes, resource updates and the routing of legacy sessions
 * reach every instance. On a Redis Cluster it is sharded pub/sub (`SPUBLISH`/`SSUBSCRIBE`): each
 * channel lives on the shard of its slot, so a message crosses one shard instead of every node, and
 * an instance holds a connection to each shard it listens on (see connection.ts).
 */
import type { Bus } from "../../types/stores.ts";
import type { CarriesExtensions, McpExtension } from "../../types/extensions.ts";
import { sessionRouting } from "../../_entries/shared.ts";
import { RedisConnection, type RedisConnectionOptions } from "./connection.ts";

/**
 * Publishes JSON messages on Redis channels (prefixed), and delivers what any instance publishes
 * to this one's subscribers. Delivery is at most once, as pub/sub is: what must survive a dropped
 * connection goes through the {@link RedisEventStore} log.
 *
 * @example
 * const connection = { url: process.env.REDIS_URL };
 * defineMcpHandler({ name: "app", version: "1.0.0", bus: new RedisBus(connection) });
 */
export class RedisBus implements Bus, CarriesExtensions {
  /** Several instances share this bus: it brings the routing of legacy sessions between them. */
  readonly extensions: readonly McpExtension[] = [sessionRouting];
  readonly #connection: RedisConnection;

  constructor(options: RedisConnectionOptions = {}) {
    this.#connection = options.connection ?? new RedisConnection(options);
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.#connection.publish(this.#connection.prefix + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, listener: (message: unknown) => void): Promise<() => void> {
    const name = this.#connection.prefix + channel;
    const deliver = (text: string): void => {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return; // Not ours: another program's message on the channel.
      }
      try {
        listener(message);
      } catch {
        // One failing subscriber must not stop delivery to the others.
      }
    };
    await this.#connection.subscribe(name, deliver);
    return () => void this.#connection.unsubscribe(name, deliver).catch(() => {});
  }

  /** Closes the connections (when this bus made them). */
  close(): Promise<void> {
    return this.#connection.close();
  }
}
