/**
 * Bob presents alice's legacy session in every request a client can make (POST request,
 * notification, response and subscribe, GET open, GET resume of her GET stream and of her POST
 * stream with her real event ids, DELETE, `notifySession`), and her real event ids on his own
 * session: each gets what an unknown session (or id) gets and nothing of hers, and her session and
 * ids go on working for her. On h3 v2 and v1, with three session stores: a store without the
 * optional `peek` (the engine's other principal check), the memory store, and mcp-h3/redis on a
 * real Redis (with its event store).
 */
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, it } from "vitest";
import {
  MemoryEventStore,
  MemorySessionStore,
  defineMcpHandler,
  type EventStore,
  type SessionData,
  type SessionStore,
  type SubscribeOutcome,
} from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { RedisBus, RedisConnection, RedisEventStore, RedisSessionStore } from "../src/_entries/redis.ts";
import { staticAuth } from "./helpers/auth.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import {
  aliceStillOwns,
  bobCrosses,
  crossingResources,
  crossingTools,
  fillAliceStreams,
  openAs,
} from "./helpers/principal-crossings.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { REDIS, unavailable } from "./helpers/services.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

/**
 * A real session store that cannot look without refreshing: the memory store behind the required
 * methods only (and the subscription methods a server with resources needs), as a user's own store
 * may be written. The engine then checks the principal on what `get` returns.
 */
class StoreWithoutPeek implements SessionStore {
  readonly inner = new MemorySessionStore();
  get(id: string): Promise<SessionData | undefined> {
    return this.inner.get(id);
  }
  create(session: SessionData): Promise<"created" | "full"> {
    return this.inner.create(session);
  }
  set(session: SessionData): Promise<void | "conflict"> {
    return this.inner.set(session);
  }
  delete(id: string): Promise<boolean> {
    return this.inner.delete(id);
  }
  onEvict(listener: (id: string) => void): void {
    this.inner.onEvict(listener);
  }
  addLiveCheck(isLive: (id: string) => boolean): void {
    this.inner.addLiveCheck(isLive);
  }
  subscribe(id: string, uri: string, max: number): Promise<SubscribeOutcome> {
    return this.inner.subscribe(id, uri, max);
  }
  unsubscribe(id: string, uri: string): Promise<void> {
    return this.inner.unsubscribe(id, uri);
  }
  isSubscribed(id: string, uri: string): Promise<boolean> {
    return this.inner.isSubscribed(id, uri);
  }
}

interface Stores {
  store: SessionStore;
  events: EventStore;
  /** The session as stored, read without refreshing it. */
  stored(id: string): Promise<SessionData | undefined>;
  close(): Promise<void>;
  bus?: RedisBus;
}

let redis: RunningRedis;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const STORES: { name: string; make(): Stores }[] = [
  {
    name: "a session store without peek",
    make() {
      const store = new StoreWithoutPeek();
      return { store, events: new MemoryEventStore(), stored: (id) => store.inner.peek(id), close: async () => {} };
    },
  },
  {
    name: "the memory stores",
    make() {
      const store = new MemorySessionStore();
      return { store, events: new MemoryEventStore(), stored: (id) => store.peek(id), close: async () => {} };
    },
  },
  {
    name: "the Redis stores",
    make() {
      const connection = new RedisConnection({ url: redis.url, prefix: `crossings${++prefixes}:` });
      const store = new RedisSessionStore({ connection });
      return {
        store,
        events: new RedisEventStore({ connection }),
        bus: new RedisBus({ connection }),
        stored: (id) => store.peek(id),
        close: () => connection.close(),
      };
    },
  },
];

describe.each(HOSTS)("principal crossings on %s", (host) => {
  const servers: RunningHost[] = [];
  const handlers: McpEventHandler[] = [];
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    for (const handler of handlers.splice(0)) await handler.close();
    for (const close of closing.splice(0)) await close();
  });

  for (const kind of STORES) {
    it(`${kind.name}: bob meets an unknown session everywhere with alice's session id and her real event ids`, async () => {
      const stores = kind.make();
      closing.push(() => stores.close());
      const handler = defineMcpHandler({
        name: "crossings",
        version: "1.0.0",
        auth: staticAuth(),
        sessions: { store: stores.store },
        events: stores.events,
        bus: stores.bus,
        tools: crossingTools(),
        resources: crossingResources(),
      });
      handlers.push(handler);
      const server = await startHost(host, handler);
      servers.push(server);

      const alice = await openAs(server.url, "alice-token");
      const bob = await openAs(server.url, "bob-token");
      const owned = await fillAliceStreams(server.url, alice);
      await bobCrosses(server.url, owned, bob);
      await aliceStillOwns(server.url, owned, stores.stored, (id, uri) => stores.store.isSubscribed!(id, uri));
    });
  }
});
