/**
 * The Durable Object stores seen from Node, for the contract suites: each method of a store is a
 * request to the object that runs it in workerd (test/fixtures/durable-stores/worker.ts). The
 * engine's side of a session store crosses with each call: the sessions live now (from the
 * liveness checks' `liveIds`) go with it, and the sessions the store ended come back to `onEvict`.
 */
import type { EventStore, SessionStore } from "../../src/index.ts";

type Remote = (method: string, args: unknown[]) => Promise<unknown>;

let counter = 0;

/** Calls one store (named afresh) of the workerd at `url`. */
function remote(
  url: string,
  kind: "sessions" | "events",
  options: object,
  live: () => string[],
  evicted: (id: string) => void,
): Remote {
  const name = `${kind}-${process.pid}-${++counter}`;
  return async (method, args) => {
    const response = await fetch(`${url}/?store=${name}`, {
      method: "POST",
      body: JSON.stringify({ kind, options, method, args, live: live() }),
    });
    const answer = (await response.json()) as { result?: unknown; evicted?: string[]; error?: string };
    if (!response.ok) throw new Error(`${kind}.${method}: ${answer.error}`);
    for (const id of answer.evicted ?? []) evicted(id);
    return answer.result;
  };
}

/** A `DurableSessionStore` with these bounds, in its own object of the workerd at `url`. */
export function remoteSessionStore(url: string, options: object): SessionStore {
  const liveSources: (() => Iterable<string>)[] = [];
  const evictListeners: ((id: string) => void)[] = [];
  const call = remote(
    url,
    "sessions",
    options,
    () => liveSources.flatMap((source) => [...source()]),
    (id) => evictListeners.forEach((listener) => listener(id)),
  );
  const method =
    (name: string) =>
    (...args: unknown[]): Promise<never> =>
      call(name, args) as Promise<never>;
  return {
    get: method("get"),
    peek: method("peek"),
    getOwned: method("getOwned"),
    create: method("create"),
    set: method("set"),
    delete: method("delete"),
    reservePrincipal: method("reservePrincipal"),
    releasePrincipal: method("releasePrincipal"),
    subscribe: method("subscribe"),
    unsubscribe: method("unsubscribe"),
    isSubscribed: method("isSubscribed"),
    onEvict: (listener) => void evictListeners.push(listener),
    addLiveCheck: (_isLive, liveIds) => {
      if (!liveIds) throw new Error("the remote store needs liveIds to carry the live sessions");
      liveSources.push(liveIds);
    },
  };
}

/** A `DurableEventStore` with these bounds, in its own object of the workerd at `url`. */
export function remoteEventStore(url: string, options: object): EventStore {
  const call = remote(
    url,
    "events",
    options,
    () => [],
    () => {},
  );
  const method =
    (name: string) =>
    (...args: unknown[]): Promise<never> =>
      call(name, args) as Promise<never>;
  return {
    append: method("append"),
    replayAfter: method("replayAfter"),
    dropStream: method("dropStream"),
    dropSession: method("dropSession"),
  };
}
