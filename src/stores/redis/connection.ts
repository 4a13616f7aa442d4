/**
 * One Redis connection shared by the stores of `mcp-h3/redis`, opened on first use (inside a
 * request: nothing connects at import or when a store is built), plus a second one for
 * subscriptions, which Redis reserves for pub/sub once a SUBSCRIBE is sent. On a Redis Cluster it is
 * node-redis's cluster client, which routes each command to the node of its key's slot, and
 * pub/sub is sharded (`SPUBLISH`/`SSUBSCRIBE`, Redis 7): a message goes to the shard of its
 * channel only, instead of to every node.
 *
 * The client is node-redis (`redis`), the client maintained by the Redis project itself, with
 * promise-based commands, Streams and Lua scripting, and no native code.
 */
import { createClient, createCluster } from "redis";

/** A node-redis client of one Redis, as `createClient()` returns it. */
export type RedisStandaloneClient = ReturnType<typeof createClient>;

/** A node-redis Redis Cluster client, as `createCluster()` returns it. */
export type RedisClusterClient = ReturnType<typeof createCluster>;

/** Either client: the stores send only commands whose keys share one slot, so both serve them alike. */
export type RedisClient = RedisStandaloneClient | RedisClusterClient;

/** How the stores reach Redis: a URL, the URLs of a cluster's nodes, or a client of yours (connected or not). */
export interface RedisConnectionOptions {
  /** `redis://…` URL of the server (default `redis://127.0.0.1:6379`). */
  url?: string;
  /**
   * `redis://host:port` URLs of some nodes of a Redis Cluster (any of them: the client learns the
   * rest from the first that answers). Given, the stores use a cluster client and `url` is unused.
   */
  clusterUrls?: readonly string[];
  /**
   * A client to use instead of a URL: `createClient()`'s, or `createCluster()`'s for a Redis
   * Cluster. Create it with `disableOfflineQueue: true` (for a cluster, in `defaults`), so that
   * commands fail at once while Redis is unreachable (the engine then answers 503) instead of waiting.
   */
  client?: RedisClient;
  /** Prefix of every key and channel (default `"mcp-h3:"`), to share one Redis between apps. */
  prefix?: string;
  /** A connection another store already opened: the stores of one handler share it (the other fields are then unused). */
  connection?: RedisConnection;
}

/** What a message listener receives: the message's text. */
export type RedisMessageListener = (text: string) => void;

/** A lazily opened connection and its subscriber. */
export class RedisConnection {
  readonly prefix: string;
  readonly #options: RedisConnectionOptions;
  #client: Promise<RedisClient> | undefined;
  #subscriber: Promise<RedisClient> | undefined;

  constructor(options: RedisConnectionOptions = {}) {
    this.#options = options;
    this.prefix = options.prefix ?? "mcp-h3:";
    if (options.clusterUrls !== undefined && options.clusterUrls.length === 0) {
      throw new RangeError("mcp-h3/redis: clusterUrls lists no node");
    }
  }

  /** Whether the stores talk to a Redis Cluster. */
  get isCluster(): boolean {
    return this.#options.client ? isClusterClient(this.#options.client) : this.#options.clusterUrls !== undefined;
  }

  /** The command connection, connected on first use. */
  client(): Promise<RedisClient> {
    return (this.#client ??= open(this.#options.client ?? newClient(this.#options)));
  }

  /**
   * The subscription connection, connected on first use: a duplicate of the command one on one
   * Redis; on a cluster the cluster client itself, which keeps a pub/sub connection per shard.
   */
  subscriber(): Promise<RedisClient> {
    if (this.isCluster) return this.client();
    return (this.#subscriber ??= this.client().then((client) => open(client.duplicate())));
  }

  /** Publishes a message's text on a channel (sharded on a cluster). */
  async publish(channel: string, text: string): Promise<void> {
    const client = await this.client();
    if (isClusterClient(client)) await client.sPublish(channel, text);
    else await client.publish(channel, text);
  }

  /** Delivers what is published on a channel to `listener`, once Redis confirmed the subscription. */
  async subscribe(channel: string, listener: RedisMessageListener): Promise<void> {
    const subscriber = await this.subscriber();
    if (isClusterClient(subscriber)) await subscriber.sSubscribe(channel, listener);
    else await subscriber.subscribe(channel, listener);
  }

  /** Stops delivering a channel to `listener` (the channel's subscription goes with its last listener). */
  async unsubscribe(channel: string, listener: RedisMessageListener): Promise<void> {
    const subscriber = await this.subscriber();
    if (isClusterClient(subscriber)) await subscriber.sUnsubscribe(channel, listener);
    else await subscriber.unsubscribe(channel, listener);
  }

  /**
   * Closes both connections (a client you passed in is closed too): commands in flight get up to
   * a second to be answered, then are dropped.
   */
  async close(): Promise<void> {
    const opened = [this.#subscriber, this.#client].filter((entry) => entry !== undefined);
    this.#client = this.#subscriber = undefined;
    for (const client of await Promise.allSettled(opened)) {
      if (client.status === "fulfilled" && client.value.isOpen) await closeWithin(client.value, CLOSE_DRAIN_MS);
    }
  }
}

/** Whether a client is node-redis's cluster client (it alone routes by slot). */
export function isClusterClient(client: RedisClient): client is RedisClusterClient {
  return typeof (client as Partial<RedisClusterClient>).getSlotRandomNode === "function";
}

function newClient(options: RedisConnectionOptions): RedisClient {
  // Commands fail while disconnected instead of queueing: a request gets 503 within its own time,
  // and the client reconnects by itself in the background.
  if (options.clusterUrls) {
    return createCluster({
      rootNodes: options.clusterUrls.map((url) => ({ url })),
      defaults: { disableOfflineQueue: true },
    });
  }
  return createClient({ url: options.url ?? "redis://127.0.0.1:6379", disableOfflineQueue: true });
}

/** How long closing waits for the answers of commands in flight before it drops them. */
const CLOSE_DRAIN_MS = 1_000;

/**
 * Closes a client, waiting a bounded time for its commands in flight. node-redis's `close()`
 * waits for their answers with no bound, and a connection caught reconnecting (Redis restarted)
 * with commands queued never gets one: it would hang forever. Past the bound, `destroy()` drops
 * them (they fail) and ends the wait.
 */
async function closeWithin(client: RedisClient, drainMs: number): Promise<void> {
  if (!(await settledWithin(client.close(), drainMs))) client.destroy();
}

/** Whether `promise` settled within `ms` (it goes on either way; a rejection in time is thrown). */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
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
    await settledWithin(
      client.connect().catch(() => {}),
      FIRST_CONNECT_WAIT_MS,
    );
  }
  return client;
}
