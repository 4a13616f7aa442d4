/**
 * One Redis connection shared by the stores of `mcp-h3/redis`, opened on first use (inside a
 * request: nothing connects at import or when a store is built), plus a second one for
 * subscriptions, which Redis reserves for pub/sub once a SUBSCRIBE is sent.
 *
 * The client is node-redis (`redis`), the client maintained by the Redis project itself, with
 * promise-based commands, Streams and Lua scripting, and no native code.
 */
import { createClient } from "redis";

/** A node-redis client, as `createClient()` returns it. */
export type RedisClient = ReturnType<typeof createClient>;

/** How the stores reach Redis: a URL, or a client of yours (connected or not). */
export interface RedisConnectionOptions {
  /** `redis://…` URL of the server (default `redis://127.0.0.1:6379`). */
  url?: string;
  /**
   * A client to use instead of a URL. Create it with `disableOfflineQueue: true`, so that commands
   * fail at once while Redis is unreachable (the engine then answers 503) instead of waiting.
   */
  client?: RedisClient;
  /** Prefix of every key and channel (default `"mcp-h3:"`), to share one Redis between apps. */
  prefix?: string;
  /** A connection another store already opened: the stores of one handler share it (the other fields are then unused). */
  connection?: RedisConnection;
}

/** A lazily opened connection and its subscriber. */
export class RedisConnection {
  readonly prefix: string;
  readonly #options: RedisConnectionOptions;
  #client: Promise<RedisClient> | undefined;
  #subscriber: Promise<RedisClient> | undefined;

  constructor(options: RedisConnectionOptions = {}) {
    this.#options = options;
    this.prefix = options.prefix ?? "mcp-h3:";
  }

  /** The command connection, connected on first use. */
  client(): Promise<RedisClient> {
    return (this.#client ??= open(this.#options.client ?? newClient(this.#options.url)));
  }

  /** The subscription connection (a duplicate of the command one), connected on first use. */
  async subscriber(): Promise<RedisClient> {
    return (this.#subscriber ??= this.client().then((client) => open(client.duplicate())));
  }

  /** Closes both connections (a client you passed in is closed too). */
  async close(): Promise<void> {
    const opened = [this.#subscriber, this.#client].filter((entry) => entry !== undefined);
    this.#client = this.#subscriber = undefined;
    for (const client of await Promise.allSettled(opened)) {
      if (client.status === "fulfilled" && client.value.isOpen) await client.value.close();
    }
  }
}

function newClient(url: string | undefined): RedisClient {
  // Commands fail while disconnected instead of queueing: a request gets 503 within its own time,
  // and the client reconnects by itself in the background.
  return createClient({ url: url ?? "redis://127.0.0.1:6379", disableOfflineQueue: true });
}

/** How long a first command waits for the connection before it fails (Redis unreachable at start). */
const FIRST_CONNECT_WAIT_MS = 2_000;

async function open(client: RedisClient): Promise<RedisClient> {
  // An 'error' event without a listener would end the process: connection errors surface as
  // failed commands instead, and the client keeps reconnecting.
  if (client.listenerCount("error") === 0) client.on("error", () => {});
  if (!client.isOpen) {
    // Connecting goes on in the background for as long as Redis is away; a command waits for it
    // a bounded time, then runs and fails fast (no offline queue), so a request is answered (503).
    const connecting = client.connect().catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_CONNECT_WAIT_MS)));
    await Promise.race([connecting, waited]);
    clearTimeout(timer);
  }
  return client;
}
