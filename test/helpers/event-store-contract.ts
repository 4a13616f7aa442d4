/**
 * The `EventStore` contract (src/types/stores.ts) as vitest cases, for any implementation: ids
 * unique within a session, a replay after an id (what followed it, oldest first, as appended), ids
 * it never gave or of another session or of a dropped stream (undefined), and a log trimmed to its
 * cap (a gap, never events skipped silently). Event ids are taken as opaque: the contract never
 * makes one up in a store's own format. A store's test file calls {@link describeEventStoreContract}
 * with a factory; each case makes its own stores.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { EventStore, JsonRpcMessage } from "../../src/index.ts";

/** The bounds a case asks its store for (named as the shipped stores' options). */
export interface EventStoreBounds {
  maxEventsPerStream?: number;
}

/** Makes a fresh, empty store with these bounds (its own keys on a shared server). */
export type EventStoreFactory = (bounds: EventStoreBounds) => EventStore | Promise<EventStore>;

export interface EventStoreContractOptions {
  /** Releases a store a case made (its connections); called after each case. */
  close?(store: EventStore): Promise<void> | void;
}

let counter = 0;

/** A session id no other case (or run, on a shared server) uses. */
export function newSessionId(): string {
  return `events-${process.pid}-${++counter}-${Math.random().toString(36).slice(2)}`;
}

/** The n-th message of a case, a notification carrying `n`. */
const message = (n: number): JsonRpcMessage =>
  ({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: { n } } }) as JsonRpcMessage;

export function describeEventStoreContract(
  name: string,
  factory: EventStoreFactory,
  options: EventStoreContractOptions = {},
): void {
  describe(`${name}: the EventStore contract`, () => {
    const opened: EventStore[] = [];
    const make = async (bounds: EventStoreBounds = {}): Promise<EventStore> => {
      const store = await factory(bounds);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await options.close?.(store);
    });

    it("replays after an id what followed it on its stream, oldest first, as appended; after the last, nothing", async () => {
      const store = await make();
      const session = newSessionId();
      const appended: { stream: string; id: string; message: JsonRpcMessage | null }[] = [];
      // Two streams written in turns, a null message (a priming event) among them.
      for (let n = 1; n <= 8; n++) {
        const stream = n % 2 ? "get" : "post-1";
        const sent = n === 3 ? null : message(n);
        appended.push({ stream, id: await store.append(session, stream, sent), message: sent });
      }
      const ids = appended.map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const stream of ["get", "post-1"]) {
        const own = appended.filter((event) => event.stream === stream);
        for (let at = 0; at < own.length; at++) {
          const replay = await store.replayAfter(session, own[at]!.id);
          expect(replay?.streamId).toBe(stream);
          expect(replay?.gap ?? false).toBe(false);
          expect(replay?.events).toEqual(
            own.slice(at + 1).map((event) => ({ id: event.id, message: JSON.parse(JSON.stringify(event.message)) })),
          );
        }
      }
    });

    it("gives ids unique within a session across its streams, appends at once included, and replays each once", async () => {
      const store = await make();
      const session = newSessionId();
      const first = await store.append(session, "get", message(0));
      const ids = await Promise.all(
        Array.from({ length: 20 }, (_, n) => store.append(session, n % 4 ? "get" : "post-1", message(n + 1))),
      );
      expect(new Set([first, ...ids]).size).toBe(21);
      const replay = await store.replayAfter(session, first);
      const onGet = ids.filter((_, n) => n % 4 !== 0);
      expect(replay?.events.map((event) => event.id).sort()).toEqual([...onGet].sort());
    });

    it("keeps sessions apart: the same stream names in two sessions, and ids of one unknown to the other", async () => {
      const store = await make();
      const [mine, theirs] = [newSessionId(), newSessionId()];
      const ownIds = [await store.append(mine, "get", message(1)), await store.append(mine, "get", message(2))];
      await store.append(theirs, "post-1", message(3));
      expect(await store.replayAfter(theirs, ownIds[0]!)).toBeUndefined();
      const theirIds = [await store.append(theirs, "get", message(4)), await store.append(theirs, "get", message(5))];
      expect((await store.replayAfter(mine, ownIds[0]!))?.events).toEqual([{ id: ownIds[1], message: message(2) }]);
      expect((await store.replayAfter(theirs, theirIds[0]!))?.events).toEqual([
        { id: theirIds[1], message: message(5) },
      ]);
    });

    it("answers undefined for an id it never gave, and for one of a session it never saw", async () => {
      const store = await make();
      const session = newSessionId();
      const id = await store.append(session, "get", message(1));
      for (const unknown of ["", "garbage", "get", "/", "get/", `${id}x`, `x${id}`, "x".repeat(10_000), "a/b/c"]) {
        expect(await store.replayAfter(session, unknown)).toBeUndefined();
      }
      expect(await store.replayAfter(newSessionId(), id)).toBeUndefined();
    });

    it("forgets a dropped stream and a dropped session, and nothing else", async () => {
      const store = await make();
      const [session, other] = [newSessionId(), newSessionId()];
      const dropped = await store.append(session, "post-1", message(1));
      const kept = await store.append(session, "get", message(2));
      const elsewhere = await store.append(other, "post-1", message(3));
      await store.dropStream(session, "post-1");
      expect(await store.replayAfter(session, dropped)).toBeUndefined();
      expect(await store.replayAfter(session, kept)).toEqual({ streamId: "get", events: [] });
      expect(await store.replayAfter(other, elsewhere)).toEqual({ streamId: "post-1", events: [] });
      await store.dropSession(session);
      expect(await store.replayAfter(session, kept)).toBeUndefined();
      expect(await store.replayAfter(other, elsewhere)).toEqual({ streamId: "post-1", events: [] });
      // Dropping what is not there is no error.
      await store.dropStream(session, "never");
      await store.dropStream(newSessionId(), "never");
      await store.dropSession(newSessionId());
    });

    it("trimmed to its cap, answers a gap after an id whose next event is gone, never events skipped silently", async () => {
      const store = await make({ maxEventsPerStream: 3 });
      const session = newSessionId();
      const ids: string[] = [];
      for (let n = 1; n <= 6; n++) ids.push(await store.append(session, "get", message(n)));
      // Kept: the last 3. After the 1st or 2nd, the next one is gone.
      for (const at of [0, 1]) {
        const replay = await store.replayAfter(session, ids[at]!);
        expect(replay?.streamId).toBe("get");
        expect(replay?.gap).toBe(true);
        // What it still lists is the kept end of the log, never a run with a hole in its middle.
        const listed = replay!.events.map((event) => event.id);
        expect(ids.slice(ids.length - listed.length)).toEqual(listed);
      }
      const replay = await store.replayAfter(session, ids[2]!);
      expect(replay?.gap ?? false).toBe(false);
      expect(replay?.events.map((event) => event.id)).toEqual(ids.slice(3));
      // Another stream of the session has a cap of its own.
      const other = [await store.append(session, "post-1", null), await store.append(session, "post-1", null)];
      expect((await store.replayAfter(session, other[0]!))?.events).toEqual([{ id: other[1], message: null }]);
    });
  });
}
