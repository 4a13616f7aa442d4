/**
 * The Durable Object stores seen from Node, for the contract suites: each method of a store is a
 * request to the object that runs it in workerd (test/fixtures/durable-stores/worker.ts), sent in
 * the order of the calls (one at a time per store, as calls in the object's own thread would be).
 * The engine's side of a session store crosses with each call: the sessions live now (from the
 * liveness checks' `liveIds`) go with it, and the sessions the store ended come back to `onEvict`.
 * A task store's listener hears the object's messages over a stream held open for it.
 */
import { lineReader } from "../../src/cloudflare/lines.ts";
import type { Bus, EventStore, SessionStore, TaskMessage, TaskStore } from "../../src/index.ts";

type Kind = "sessions" | "events" | "tasks";

let counter = 0;

/** One store (named afresh) of the workerd at `url`, its calls sent one after another. */
class Remote {
  readonly #url: string;
  readonly #body: { kind: Kind; options: object };
  #queue: Promise<unknown> = Promise.resolve();
  live: () => string[] = () => [];
  evicted: (id: string) => void = () => {};

  constructor(url: string, kind: Kind, options: object) {
    this.#url = `${url}/?store=${kind}-${process.pid}-${++counter}`;
    this.#body = { kind, options };
  }

  /** The method's result, after every call made before it. */
  call(method: string, args: unknown[]): Promise<unknown> {
    return this.#then(async () => {
      const answer = (await (await this.#post(method, args)).json()) as { result?: unknown; evicted?: string[] };
      for (const id of answer.evicted ?? []) this.evicted(id);
      return answer.result;
    });
  }

  /** Adds `listener` in the object; resolves with its release once the object holds it. */
  subscribe(taskId: string, listener: (message: TaskMessage) => void): Promise<() => void> {
    return this.#then(async () => {
      const response = await this.#post("subscribe", [taskId]);
      const reader = response.body!.getReader();
      const lines = lineReader(reader);
      const next = async (): Promise<unknown> => {
        const line = await lines.next();
        return line === undefined ? undefined : JSON.parse(line);
      };
      const { ready } = (await next()) as { ready: number };
      let released = false;
      void (async () => {
        for (let message = await next(); message !== undefined && !released; message = await next()) {
          try {
            listener(message as TaskMessage);
          } catch {
            // A listener's own failure stops no other.
          }
        }
      })().catch(() => {});
      return () => {
        if (released) return;
        released = true;
        void this.call("release", [ready]).finally(() => reader.cancel().catch(() => {}));
      };
    });
  }

  #then<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => {});
    return result;
  }

  async #post(method: string, args: unknown[]): Promise<Response> {
    const response = await fetch(this.#url, {
      method: "POST",
      // JSON has no undefined and no NaN: the arguments left out (a first page's cursor) are named
      // apart, and non-finite numbers are sent as text.
      body: JSON.stringify({
        ...this.#body,
        method,
        args: args.map(nonFinite),
        absent: absentArguments(args),
        live: this.live(),
      }),
    });
    if (!response.ok) {
      throw new Error(`${this.#body.kind}.${method}: ${((await response.json()) as { error: string }).error}`);
    }
    return response;
  }
}

/** A `DurableSessionStore` with these bounds, in its own object of the workerd at `url`. */
export function remoteSessionStore(url: string, options: object): SessionStore {
  const liveSources: (() => Iterable<string>)[] = [];
  const evictListeners: ((id: string) => void)[] = [];
  const remote = new Remote(url, "sessions", options);
  remote.live = () => liveSources.flatMap((source) => [...source()]);
  remote.evicted = (id) => evictListeners.forEach((listener) => listener(id));
  const method = methodsOf(remote);
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
  const method = methodsOf(new Remote(url, "events", options));
  return {
    append: method("append"),
    replayAfter: method("replayAfter"),
    dropStream: method("dropStream"),
    dropSession: method("dropSession"),
  };
}

/** A `DurableTaskStore` with these bounds, in its own object of the workerd at `url`. */
export function remoteTaskStore(url: string, options: object): TaskStore {
  const remote = new Remote(url, "tasks", options);
  const method = methodsOf(remote);
  return {
    create: method("create"),
    get: method("get"),
    update: method("update"),
    list: method("list"),
    publish: method("publish"),
    subscribe: (taskId, listener) => remote.subscribe(taskId, listener),
  };
}

/** The methods of a remote store, by name. */
function methodsOf(remote: Remote) {
  return (name: string) =>
    (...args: unknown[]): Promise<never> =>
      remote.call(name, args) as Promise<never>;
}

/** A number JSON cannot carry (NaN, ±Infinity, given as a page's limit) as its text in an object. */
function nonFinite(arg: unknown): unknown {
  return typeof arg === "number" && !Number.isFinite(arg) ? { nonFinite: String(arg) } : arg;
}

/** The positions of the arguments that are undefined. */
function absentArguments(args: unknown[]): number[] {
  return args.flatMap((arg, index) => (arg === undefined ? [index] : []));
}

/**
 * The bus of the object behind the fixture Worker at `url` (test/fixtures/durable-mcp), as Node
 * code reaches it: each call is a request to the Worker, which uses `DurableBus` (the Worker's
 * `mcp.bus(env)`); a subscription is a request held open, one JSON line per message. Each
 * instance is another client of the one object's bus, as another isolate would be.
 */
export function remoteBus(url: string): Bus & { close(): void } {
  const aborts = new Set<AbortController>();
  return {
    async publish(channel, message) {
      const response = await fetch(`${url}/bus/publish`, {
        method: "POST",
        body: JSON.stringify({ channel, message }),
      });
      if (!response.ok) throw new Error(`bus publish: ${response.status}`);
      await response.body?.cancel();
    },
    async subscribe(channel, listener) {
      const abort = new AbortController();
      aborts.add(abort);
      const response = await fetch(`${url}/bus/subscribe?channel=${encodeURIComponent(channel)}`, {
        signal: abort.signal,
      });
      const lines = lineReader(response.body!.getReader());
      const next = (): Promise<string | undefined> => lines.next();
      if ((await next()) !== "ready") throw new Error("bus subscribe: no ready line");
      let open = true;
      void (async () => {
        for (let line = await next(); open && line !== undefined; line = await next()) listener(JSON.parse(line));
      })().catch(() => {});
      return () => {
        open = false;
        aborts.delete(abort);
        abort.abort();
      };
    },
    close() {
      for (const abort of aborts) abort.abort();
      aborts.clear();
    },
  };
}
