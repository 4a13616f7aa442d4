/**
 * The `SessionStore` contract (src/types/stores.ts) as vitest cases, for any implementation: create,
 * get, set and delete; what refreshes a session's idle timer and what does not (`peek`, `getOwned`
 * of a stranger, `isSubscribed`); the TTL; the caps and who makes room (pending first, least
 * recently used, live sessions and handshakes within their grace never); the subscriptions; the
 * per-principal count. A store's test file calls {@link describeSessionStoreContract} with a
 * factory; each case makes its own stores; the optional methods a store does not implement are
 * declared (`without`), and their cases left out, so a method missing by mistake fails. Real time throughout, with short TTLs and graces: a case waits
 * for what the store does and checks only lower bounds of time, so a slow machine makes it slower,
 * never wrong.
 */
import { afterEach, describe, expect, it, type TestContext } from "vitest";
import type { SessionData, SessionStore } from "../../src/index.ts";
import { until } from "./task-store-contract.ts";

/** The bounds a case asks its store for (named as the shipped stores' options). */
export interface SessionStoreBounds {
  ttlMs: number;
  maxSessions: number;
  maxPendingSessions: number;
  handshakeGraceMs: number;
}

/** Makes a fresh, empty store with these bounds (its own keys on a shared server). */
export type SessionStoreFactory = (bounds: SessionStoreBounds) => SessionStore | Promise<SessionStore>;

export interface SessionStoreContractOptions {
  /** Releases a store a case made (its connections, its timers); called after each case. */
  close?(store: SessionStore): Promise<void> | void;
  /**
   * Promises of the contract this store is known not to keep, by {@link SessionStoreGap}, each with
   * why: their cases run as expected failures (`it.fails`), so they pass while the gap stands and
   * fail once it is closed, for the entry to be removed.
   */
  knownGaps?: Partial<Record<SessionStoreGap, string>>;
  /**
   * The optional methods of `SessionStore` this store does not implement: the cases that need them
   * are not declared. Any other optional method a case needs must be there, or the case fails.
   */
  without?: readonly (keyof SessionStore)[];
}

/** The cases a store may be excused from through {@link SessionStoreContractOptions.knownGaps}. */
export type SessionStoreGap =
  "onEvict after the TTL" | "subscriptions end with the TTL" | "subscriptions end with eviction";

/** The TTL of the sessions a case watches expire: far above the few calls made meanwhile. */
export const SESSION_TTL_MS = 1_000;

/** The TTL of sessions a case does not watch expire. */
const LONG_TTL_MS = 60_000;

/**
 * How long a case waits before a use that must reorder sessions: a networked store may keep its
 * order of use exact to a second only (`RedisSessionStore` does), which the contract leaves open.
 */
const ORDER_RESOLUTION_MS = 1_100;

const DEFAULTS: SessionStoreBounds = {
  ttlMs: LONG_TTL_MS,
  maxSessions: 100,
  maxPendingSessions: 100,
  handshakeGraceMs: 0,
};

let counter = 0;

/** A new session: initialized unless told, created now. */
export function newSession(fields: Partial<SessionData> = {}): SessionData {
  return {
    id: `session-${process.pid}-${++counter}-${Math.random().toString(36).slice(2)}`,
    protocolVersion: "2025-11-25",
    clientCapabilities: {},
    initialized: true,
    createdAt: Date.now(),
    ...fields,
  };
}

/** The session as a store gives it back: its JSON. */
const stored = (session: SessionData): SessionData => JSON.parse(JSON.stringify(session)) as SessionData;

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the engine gives a store: a liveness check it controls, and what the store told it ended. */
export interface Watched {
  live: Set<string>;
  evicted: string[];
}

/** Gives the store a liveness check and an eviction listener, as the engine does when it starts using it. */
export function watch(store: SessionStore): Watched {
  const watched: Watched = { live: new Set(), evicted: [] };
  store.onEvict?.((id) => watched.evicted.push(id));
  store.addLiveCheck?.(
    (id) => watched.live.has(id),
    () => watched.live,
  );
  return watched;
}

export function describeSessionStoreContract(
  name: string,
  factory: SessionStoreFactory,
  options: SessionStoreContractOptions = {},
): void {
  describe(`${name}: the SessionStore contract`, () => {
    const opened: SessionStore[] = [];
    const make = async (bounds: Partial<SessionStoreBounds> = {}): Promise<SessionStore> => {
      const store = await factory({ ...DEFAULTS, ...bounds });
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await options.close?.(store);
    });
    /** A case that a known gap of this store turns into an expected failure. */
    const promise = (gap: SessionStoreGap, title: string, body: (context: TestContext) => Promise<void>): void => {
      const why = options.knownGaps?.[gap];
      if (why === undefined) it(title, body);
      else it.fails(`${title} (known gap: ${why})`, body);
    };
    /**
     * The optional methods a case needs: a store has them unless it says otherwise in `without`
     * (whose cases are then not declared), so a method lost by mistake fails its cases.
     */
    const needs = (_context: TestContext, store: SessionStore, methods: (keyof SessionStore)[]): void => {
      const missing = methods.filter((method) => typeof store[method] !== "function");
      expect(missing, `${name} lacks optional methods it does not declare in \`without\``).toEqual([]);
    };
    const lacks = (...methods: (keyof SessionStore)[]): boolean =>
      methods.some((method) => options.without?.includes(method));

    it("create stores a session that get, peek and getOwned answer; an unknown id is undefined", async () => {
      const store = await make();
      const session = newSession({ principal: "alice", clientInfo: { name: "client", version: "1.0.0" } });
      expect(await store.create(session)).toBe("created");
      expect(await store.get(session.id)).toEqual(stored(session));
      expect(await store.peek?.(session.id)).toEqual(store.peek ? stored(session) : undefined);
      expect(await store.getOwned?.(session.id, "alice")).toEqual(store.getOwned ? stored(session) : undefined);
      for (const unknown of ["no-such-session", "", "x".repeat(100_000)]) {
        expect(await store.get(unknown)).toBeUndefined();
        expect(await store.peek?.(unknown)).toBeUndefined();
        expect(await store.getOwned?.(unknown, "alice")).toBeUndefined();
      }
    });

    it("set replaces a session's data; a session that ended stays ended, and an unknown one is not stored", async () => {
      const store = await make();
      const session = newSession({ initialized: false });
      await store.create(session);
      const read = (await store.get(session.id))!;
      // The copy just read, changed: no other request wrote it, so even a shared store takes it.
      expect(await store.set({ ...read, initialized: true, logLevel: "debug" })).not.toBe("conflict");
      expect(await store.get(session.id)).toEqual({ ...stored(session), initialized: true, logLevel: "debug" });
      expect(await store.delete(session.id)).toBe(true);
      expect(await store.get(session.id)).toBeUndefined();
      await store.set({ ...read, logLevel: "error" });
      expect(await store.get(session.id)).toBeUndefined();
      expect(await store.delete(session.id)).toBe(false);
      const never = newSession();
      await store.set(never);
      expect(await store.get(never.id)).toBeUndefined();
      expect(await store.delete(never.id)).toBe(false);
    });

    it("get, set and getOwned by the owner refresh a session's idle timer; peek, getOwned by another principal and isSubscribed do not", async (context) => {
      const store = await make({ ttlMs: SESSION_TTL_MS });
      needs(context, store, ["peek"]);
      const [got, saved, owned, peeked, foreign, subscribed] = Array.from({ length: 6 }, () =>
        newSession({ principal: "alice" }),
      ) as [SessionData, SessionData, SessionData, SessionData, SessionData, SessionData];
      for (const session of [got, saved, owned, peeked, foreign, subscribed]) await store.create(session);
      await store.subscribe?.(subscribed.id, "docs://a", 10);
      // Each round uses the first three and only looks at the others, until those looked at are gone.
      await until(async () => {
        await store.get(got.id);
        await store.set(saved);
        await (store.getOwned ? store.getOwned(owned.id, "alice") : store.get(owned.id));
        await store.getOwned?.(foreign.id, "mallory");
        await store.isSubscribed?.(subscribed.id, "docs://a");
        const looks = await Promise.all([peeked, foreign, subscribed].map((session) => store.peek!(session.id)));
        await pause(20);
        return looks.every((look) => look === undefined);
      });
      for (const session of [got, saved, owned]) expect(await store.get(session.id)).toEqual(stored(session));
      for (const session of [peeked, foreign, subscribed]) expect(await store.get(session.id)).toBeUndefined();
    });

    it("getOwned answers a stranger with the session as it is (the engine compares the principal)", async (context) => {
      const store = await make();
      needs(context, store, ["getOwned"]);
      const session = newSession({ principal: "alice" });
      await store.create(session);
      expect(await store.getOwned!(session.id, "mallory")).toEqual(stored(session));
      expect(await store.getOwned!(newSession().id, "mallory")).toBeUndefined();
    });

    it("a session idle past its TTL has ended for every method", async () => {
      const store = await make({ ttlMs: SESSION_TTL_MS });
      const sessions = Array.from({ length: 5 }, () => newSession()) as [
        SessionData,
        SessionData,
        SessionData,
        SessionData,
        SessionData,
      ];
      for (const session of sessions) await store.create(session);
      const start = Date.now();
      // No call until the TTL has passed: whatever ends it, the store or its server, has done so.
      await pause(SESSION_TTL_MS * 1.5);
      expect(Date.now() - start).toBeGreaterThan(SESSION_TTL_MS);
      const [deleted, got, peeked, saved, subscribed] = sessions;
      expect(await store.delete(deleted.id)).toBe(false);
      expect(await store.get(got.id)).toBeUndefined();
      expect(await store.peek?.(peeked.id)).toBeUndefined();
      expect(await store.getOwned?.(peeked.id, "alice")).toBeUndefined();
      await store.set(saved);
      expect(await store.get(saved.id)).toBeUndefined();
      expect(await store.subscribe?.(subscribed.id, "docs://a", 10)).toBe(store.subscribe ? "ended" : undefined);
    });

    promise("onEvict after the TTL", "tells onEvict of a session it ended by its TTL", async (context) => {
      const store = await make({ ttlMs: SESSION_TTL_MS });
      needs(context, store, ["onEvict"]);
      const { evicted } = watch(store);
      const session = newSession();
      await store.create(session);
      await pause(SESSION_TTL_MS * 1.5);
      // Any call may be when the store finds it expired: these are the ones after it ended.
      await until(async () => (await store.get(session.id)) === undefined && evicted.includes(session.id), 3_000);
      expect(evicted).toEqual([session.id]);
    });

    it("at the cap an idle session past its grace makes room, least recently used first, and onEvict hears of it", async () => {
      const store = await make({ maxSessions: 2 });
      const { evicted } = watch(store);
      const [older, newer, third] = [newSession(), newSession(), newSession()];
      await store.create(older);
      await store.create(newer);
      await pause(ORDER_RESOLUTION_MS);
      await store.get(older.id); // now the least recently used is `newer`
      expect(await store.create(third)).toBe("created");
      expect(await store.get(newer.id)).toBeUndefined();
      expect(await store.get(older.id)).toBeDefined();
      expect(await store.get(third.id)).toBeDefined();
      if (store.onEvict) expect(evicted).toEqual([newer.id]);
    });

    it("pending sessions (no notifications/initialized) make room first, before older initialized ones", async () => {
      const store = await make({ maxSessions: 3 });
      const { evicted } = watch(store);
      const [first, second] = [newSession(), newSession()];
      const pending = newSession({ initialized: false });
      for (const session of [first, second, pending]) {
        await store.create(session);
        await pause(5);
      }
      const next = newSession();
      expect(await store.create(next)).toBe("created");
      expect(await store.get(pending.id)).toBeUndefined();
      for (const session of [first, second, next]) expect(await store.get(session.id)).toBeDefined();
      if (store.onEvict) expect(evicted).toEqual([pending.id]);
    });

    it("the pending cap ends the oldest pending session past its grace, never an initialized one", async () => {
      const store = await make({ maxSessions: 100, maxPendingSessions: 2 });
      const ready = newSession();
      await store.create(ready);
      const pending = [1, 2, 3].map(() => newSession({ initialized: false }));
      for (const session of pending) {
        expect(await store.create(session)).toBe("created");
        await pause(5);
      }
      expect(await store.get(pending[0]!.id)).toBeUndefined();
      for (const session of [ready, pending[1]!, pending[2]!]) expect(await store.get(session.id)).toBeDefined();
    });

    it("a session that sends notifications/initialized (set) leaves the pending cap", async () => {
      const store = await make({ maxPendingSessions: 1, handshakeGraceMs: LONG_TTL_MS });
      const first = newSession({ initialized: false });
      await store.create(first);
      const second = newSession({ initialized: false });
      expect(await store.create(second)).toBe("full");
      await store.set({ ...(await store.get(first.id))!, initialized: true });
      expect(await store.create(second)).toBe("created");
      expect(await store.get(first.id)).toBeDefined();
    });

    it("never ends a live session for room: full of live ones, create answers full and stores nothing", async (context) => {
      const store = await make({ maxSessions: 2 });
      needs(context, store, ["addLiveCheck"]);
      const { live, evicted } = watch(store);
      const [a, b, c] = [newSession(), newSession({ initialized: false }), newSession()];
      await store.create(a);
      await store.create(b);
      live.add(a.id).add(b.id);
      expect(await store.create(c)).toBe("full");
      expect(await store.get(c.id)).toBeUndefined();
      expect(await store.get(a.id)).toBeDefined();
      expect(await store.get(b.id)).toBeDefined();
      expect(evicted).toEqual([]);
      live.delete(b.id);
      expect(await store.create(c)).toBe("created");
      expect(await store.get(b.id)).toBeUndefined();
      expect(await store.get(a.id)).toBeDefined();
    });

    it("does not expire a live session by its TTL; once it is no longer live, its idle time runs", async (context) => {
      const store = await make({ ttlMs: SESSION_TTL_MS });
      needs(context, store, ["addLiveCheck", "peek"]);
      const { live } = watch(store);
      const [busy, idle] = [newSession(), newSession()];
      await store.create(busy);
      await store.create(idle);
      live.add(busy.id);
      // Looked at (never used) until the idle one is gone, and as long again: the live one stays.
      await until(async () => (await store.peek!(idle.id)) === undefined);
      const gone = Date.now();
      while (Date.now() - gone < SESSION_TTL_MS * 1.5) {
        expect(await store.peek!(busy.id)).toBeDefined();
        await pause(50);
      }
      live.delete(busy.id);
      await until(async () => (await store.peek!(busy.id)) === undefined);
      expect(await store.get(busy.id)).toBeUndefined();
    });

    it("within their handshake grace no session makes room: fresh handshakes refuse the next session at either cap", async () => {
      const store = await make({ maxSessions: 2, maxPendingSessions: 2, handshakeGraceMs: LONG_TTL_MS });
      const { evicted } = watch(store);
      const [p1, p2] = [newSession({ initialized: false }), newSession({ initialized: false })];
      await store.create(p1);
      await store.create(p2);
      const [p3, ready] = [newSession({ initialized: false }), newSession()];
      expect(await store.create(p3)).toBe("full");
      expect(await store.create(ready)).toBe("full");
      expect(await store.get(p3.id)).toBeUndefined();
      expect(await store.get(ready.id)).toBeUndefined();
      expect(await store.get(p1.id)).toBeDefined();
      expect(await store.get(p2.id)).toBeDefined();
      expect(evicted).toEqual([]);
    });

    it("a pending session's grace counts from its create, however it is used meanwhile", async () => {
      const grace = 1_000;
      const store = await make({ maxPendingSessions: 1, handshakeGraceMs: grace });
      const start = Date.now();
      const first = newSession({ initialized: false });
      await store.create(first);
      const next = newSession({ initialized: false });
      // Used all along, it still makes room once its grace is over, and not before.
      await until(async () => {
        await store.get(first.id);
        const outcome = await store.create(next);
        await pause(20);
        return outcome === "created";
      });
      expect(Date.now() - start).toBeGreaterThanOrEqual(grace);
      expect(await store.get(first.id)).toBeUndefined();
    });

    it("an initialized session's grace counts from its last use: in steady use it never makes room", async () => {
      const grace = 1_000;
      const store = await make({ maxSessions: 1, handshakeGraceMs: grace });
      const first = newSession();
      await store.create(first);
      const next = newSession();
      const start = Date.now();
      let lastUse = start;
      while (Date.now() - start < grace * 2.5) {
        lastUse = Date.now();
        await store.get(first.id);
        expect(await store.create(next)).toBe("full");
        await pause(50);
      }
      await until(async () => (await store.create(next)) === "created");
      expect(Date.now() - lastUse).toBeGreaterThanOrEqual(grace);
      expect(await store.get(first.id)).toBeUndefined();
    });

    it("subscribe: subscribed, full at max other URIs (storing nothing), subscribed again for a URI held, ended for an unknown session", async (context) => {
      const store = await make();
      needs(context, store, ["subscribe", "unsubscribe", "isSubscribed"]);
      const session = newSession();
      await store.create(session);
      expect(await store.subscribe!(session.id, "docs://a", 2)).toBe("subscribed");
      expect(await store.subscribe!(session.id, "docs://b", 2)).toBe("subscribed");
      expect(await store.subscribe!(session.id, "docs://c", 2)).toBe("full");
      expect(await store.isSubscribed!(session.id, "docs://c")).toBe(false);
      // A URI held already takes no room, at any count.
      expect(await store.subscribe!(session.id, "docs://a", 2)).toBe("subscribed");
      expect(await store.subscribe!(session.id, "docs://a", 1)).toBe("subscribed");
      expect(await store.isSubscribed!(session.id, "docs://a")).toBe(true);
      await store.unsubscribe!(session.id, "docs://a");
      await store.unsubscribe!(session.id, "docs://never-held");
      expect(await store.isSubscribed!(session.id, "docs://a")).toBe(false);
      expect(await store.isSubscribed!(session.id, "docs://b")).toBe(true);
      expect(await store.subscribe!(session.id, "docs://c", 2)).toBe("subscribed");
      // Sessions are apart.
      const other = newSession();
      await store.create(other);
      expect(await store.isSubscribed!(other.id, "docs://b")).toBe(false);
      expect(await store.subscribe!(other.id, "docs://d", 1)).toBe("subscribed");
      const unknown = newSession();
      expect(await store.subscribe!(unknown.id, "docs://a", 2)).toBe("ended");
      expect(await store.isSubscribed!(unknown.id, "docs://a")).toBe(false);
      await store.unsubscribe!(unknown.id, "docs://a");
      expect(await store.get(unknown.id)).toBeUndefined();
    });

    it("subscriptions end with a deleted session: subscribe answers ended, and the id created again holds none", async (context) => {
      const store = await make();
      needs(context, store, ["subscribe", "unsubscribe", "isSubscribed"]);
      const session = newSession();
      await store.create(session);
      await store.subscribe!(session.id, "docs://a", 2);
      expect(await store.delete(session.id)).toBe(true);
      expect(await store.isSubscribed!(session.id, "docs://a")).toBe(false);
      expect(await store.subscribe!(session.id, "docs://b", 2)).toBe("ended");
      await store.create(session);
      expect(await store.isSubscribed!(session.id, "docs://a")).toBe(false);
      expect(await store.isSubscribed!(session.id, "docs://b")).toBe(false);
    });

    promise("subscriptions end with the TTL", "subscriptions end with a session ended by its TTL", async (context) => {
      const store = await make({ ttlMs: SESSION_TTL_MS });
      needs(context, store, ["subscribe", "unsubscribe", "isSubscribed"]);
      const session = newSession();
      await store.create(session);
      await store.subscribe!(session.id, "docs://a", 2);
      await pause(SESSION_TTL_MS * 1.5);
      expect(await store.isSubscribed!(session.id, "docs://a")).toBe(false);
      expect(await store.get(session.id)).toBeUndefined();
    });

    promise(
      "subscriptions end with eviction",
      "subscriptions end with a session ended to make room",
      async (context) => {
        const store = await make({ maxSessions: 1 });
        needs(context, store, ["subscribe", "unsubscribe", "isSubscribed"]);
        const session = newSession();
        await store.create(session);
        await store.subscribe!(session.id, "docs://a", 2);
        expect(await store.create(newSession())).toBe("created");
        expect(await store.get(session.id)).toBeUndefined();
        expect(await store.isSubscribed!(session.id, "docs://a")).toBe(false);
      },
    );

    // Per-principal reservations, for a store that keeps them (the memory store counts per process instead).
    if (!lacks("reservePrincipal", "releasePrincipal")) {
      it("reservePrincipal counts up to max per principal, principals apart; releasePrincipal frees a place", async (context) => {
        const store = await make();
        needs(context, store, ["reservePrincipal", "releasePrincipal"]);
        const [a1, a2, a3, b1] = [newSession(), newSession(), newSession(), newSession()];
        expect(await store.reservePrincipal!("alice", a1.id, 2)).toBe(true);
        expect(await store.reservePrincipal!("alice", a2.id, 2)).toBe(true);
        expect(await store.reservePrincipal!("alice", a3.id, 2)).toBe(false);
        expect(await store.reservePrincipal!("bob", b1.id, 2)).toBe(true);
        // Reservations and created sessions count alike.
        await store.create({ ...a1, principal: "alice" });
        expect(await store.reservePrincipal!("alice", a3.id, 2)).toBe(false);
        await store.releasePrincipal!("alice", "never-counted");
        await store.releasePrincipal!("carol", a1.id);
        expect(await store.reservePrincipal!("alice", a3.id, 2)).toBe(false);
        await store.releasePrincipal!("alice", a2.id);
        expect(await store.reservePrincipal!("alice", a3.id, 2)).toBe(true);
        expect(await store.reservePrincipal!("alice", newSession().id, 2)).toBe(false);
        // Concurrent reservations never pass max.
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, () => store.reservePrincipal!("dave", newSession().id, 3)),
        );
        expect(outcomes.filter(Boolean)).toHaveLength(3);
      });

      it("a principal's session ended by its TTL stops counting on its own", async (context) => {
        const store = await make({ ttlMs: SESSION_TTL_MS });
        needs(context, store, ["reservePrincipal", "releasePrincipal"]);
        const session = newSession({ principal: "alice" });
        expect(await store.reservePrincipal!("alice", session.id, 1)).toBe(true);
        await store.create(session);
        const next = newSession({ principal: "alice" });
        expect(await store.reservePrincipal!("alice", next.id, 1)).toBe(false);
        await until(async () => {
          const reserved = await store.reservePrincipal!("alice", next.id, 1);
          await pause(50);
          return reserved;
        });
        expect(await store.get(session.id)).toBeUndefined();
      });
    }
  });
}
