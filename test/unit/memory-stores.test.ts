/**
 * The in-memory stores on their own: the session store's eviction policy (pending first, live
 * never, "full" instead of ending someone), its TTL, the event log's gap detection and strict ids,
 * and the bus's release of subscriptions.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryBus } from "../../src/stores/memory/bus.ts";
import { MemoryEventStore } from "../../src/stores/memory/events.ts";
import { MemorySessionStore } from "../../src/stores/memory/sessions.ts";
import type { SessionData } from "../../src/types/stores.ts";

function session(id: string, initialized = true): SessionData {
  return { id, protocolVersion: "2025-11-25", clientCapabilities: {}, initialized, createdAt: 0 };
}

describe("MemorySessionStore", () => {
  afterEach(() => vi.useRealTimers());

  function storeWith(options: ConstructorParameters<typeof MemorySessionStore>[0], live = new Set<string>()) {
    // The order of eviction on its own; the handshake grace is tested apart.
    const store = new MemorySessionStore({ handshakeGraceMs: 0, ...options });
    const evicted: string[] = [];
    let checks = 0;
    store.onEvict((id) => evicted.push(id));
    store.addLiveCheck((id) => {
      checks++;
      return live.has(id);
    });
    return { store, evicted, live, checks: () => checks };
  }

  it("keeps a session's subscriptions beside it, capped, and ends them with it (delete, expiry, eviction)", async () => {
    vi.useFakeTimers();
    const { store } = storeWith({ maxSessions: 2, ttlMs: 1000 });
    expect(await store.subscribe("nobody", "docs://a", 2)).toBe("ended");
    await store.create(session("one"));
    expect(await store.subscribe("one", "docs://a", 2)).toBe("subscribed");
    expect(await store.subscribe("one", "docs://b", 2)).toBe("subscribed");
    expect(await store.subscribe("one", "docs://c", 2)).toBe("full");
    expect(await store.subscribe("one", "docs://a", 2)).toBe("subscribed");
    await store.unsubscribe("one", "docs://a");
    expect(await store.isSubscribed("one", "docs://a")).toBe(false);
    expect(await store.delete("one")).toBe(true);
    expect(await store.isSubscribed("one", "docs://b")).toBe(false);
    // Created again under the same id, a session starts with none.
    await store.create(session("one"));
    expect(await store.isSubscribed("one", "docs://b")).toBe(false);
    await store.subscribe("one", "docs://b", 2);
    vi.advanceTimersByTime(1001);
    expect(await store.isSubscribed("one", "docs://b")).toBe(false);
    await store.create(session("two"));
    await store.subscribe("two", "docs://b", 2);
    await store.create(session("three"));
    await store.create(session("four"));
    expect(await store.isSubscribed("two", "docs://b")).toBe(false);
  });

  it("ends the oldest pending session at the pending cap, and never an initialized one for it", async () => {
    const { store, evicted } = storeWith({ maxSessions: 100, maxPendingSessions: 2 });
    await store.create(session("ready"));
    for (const id of ["p1", "p2", "p3"]) expect(await store.create(session(id, false))).toBe("created");
    expect(evicted).toEqual(["p1"]);
    expect(store.pendingSize).toBe(2);
    expect(await store.get("ready")).toBeDefined();
  });

  it("makes room with pending sessions first, then the least recently used idle one", async () => {
    const { store, evicted } = storeWith({ maxSessions: 3 });
    await store.create(session("a"));
    await store.create(session("b"));
    await store.create(session("p", false));
    await store.create(session("c"));
    expect(evicted).toEqual(["p"]);
    await store.get("a"); // b is now the least recently used
    await store.create(session("d"));
    expect(evicted).toEqual(["p", "b"]);
  });

  it("peek reads a session without refreshing it: neither its idle time nor its place in the order of use", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { store, evicted } = storeWith({ maxSessions: 2, ttlMs: 1000 });
    await store.create(session("a"));
    await store.create(session("b"));
    vi.setSystemTime(Date.now() + 600);
    expect(await store.peek("a")).toEqual(session("a"));
    expect(await store.peek("unknown")).toBeUndefined();
    // "a" is still the least recently used: room for "c" is made with it.
    await store.create(session("c"));
    expect(evicted).toEqual(["a"]);
    vi.setSystemTime(Date.now() + 500);
    expect(await store.peek("b")).toBeUndefined();
    expect(evicted).toEqual(["a", "b"]);
  });

  it("never ends a live session for room: full of live sessions, create answers full and stores nothing", async () => {
    const { store, evicted, live } = storeWith({ maxSessions: 2 });
    await store.create(session("a"));
    await store.create(session("b"));
    live.add("a").add("b");
    expect(await store.create(session("c"))).toBe("full");
    expect(await store.get("c")).toBeUndefined();
    expect(evicted).toEqual([]);
    live.delete("b");
    expect(await store.create(session("c"))).toBe("created");
    expect(evicted).toEqual(["b"]);
  });

  it("looks at a bounded number of sessions per create, however many are live", async () => {
    const live = new Set<string>();
    const { store, checks } = storeWith({ maxSessions: 5000 }, live);
    for (let index = 0; index < 5000; index++) {
      await store.create(session(`s${index}`));
      live.add(`s${index}`);
    }
    const before = checks();
    expect(await store.create(session("late"))).toBe("full");
    expect(checks() - before).toBeLessThanOrEqual(1024);
    // The first 1,024 live ones went behind the others: an idle one within the next 1,024 is ended at once…
    live.delete("s1500");
    expect(await store.create(session("late"))).toBe("created");
    expect(await store.get("s1500")).toBeUndefined();
    // …and one further on is reached by later tries, each looking at 1,024 more.
    live.delete("s4500");
    let outcome: string = "full";
    let tries = 0;
    for (; tries < 10 && outcome === "full"; tries++) outcome = await store.create(session("later"));
    expect(outcome).toBe("created");
    expect(tries).toBe(3);
    expect(await store.get("s4500")).toBeUndefined();
  });

  it("within the handshake grace no session makes room: a pending one from its creation, an initialized one from its last use", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { store, evicted } = storeWith({ maxSessions: 3, maxPendingSessions: 2, handshakeGraceMs: 1000 });
    const start = Date.now();
    const at = (ms: number): void => {
      vi.setSystemTime(start + ms);
    };
    await store.create(session("ready"));
    await store.create(session("p1", false));
    at(300);
    await store.create(session("p2", false));
    // The pending cap is full of fresh handshakes, and so is the store: both caps refuse.
    expect(await store.create(session("p3", false))).toBe("full");
    expect(await store.create(session("r2"))).toBe("full");
    at(600);
    await store.get("p1"); // used: now behind p2, but its grace still counts from its creation
    await store.get("ready");
    at(1100);
    // p1 is past its grace although just used; p2 is not; "ready" was used 500 ms ago.
    expect(await store.create(session("r2"))).toBe("created");
    expect(evicted).toEqual(["p1"]);
    expect(await store.create(session("r3"))).toBe("full");
    at(1400);
    expect(await store.create(session("r3"))).toBe("created");
    expect(evicted).toEqual(["p1", "p2"]);
    expect(await store.create(session("r4"))).toBe("full");
    at(1700);
    // The least recently used initialized session, past its grace; r2 and r3 are still recent.
    expect(await store.create(session("r4"))).toBe("created");
    expect(evicted).toEqual(["p1", "p2", "ready"]);
  });

  it("the default handshake grace is 2 s", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = new MemorySessionStore({ maxSessions: 1 });
    expect(store.handshakeGraceMs).toBe(2000);
    await store.create(session("a", false));
    vi.setSystemTime(Date.now() + 1999);
    expect(await store.create(session("b", false))).toBe("full");
    vi.setSystemTime(Date.now() + 1);
    expect(await store.create(session("b", false))).toBe("created");
  });

  it("a set never brings back a session that ended", async () => {
    const { store } = storeWith({});
    const data = session("gone");
    await store.create(data);
    await store.delete("gone");
    await store.set(data);
    expect(await store.get("gone")).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("a set that initializes a session moves it out of the pending ones", async () => {
    const { store } = storeWith({});
    const data = session("x", false);
    await store.create(data);
    expect(store.pendingSize).toBe(1);
    await store.set({ ...data, initialized: true });
    expect(store.pendingSize).toBe(0);
    expect(store.size).toBe(1);
  });

  it("expires idle sessions after the TTL, but treats a live one as just used", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { store, evicted, live } = storeWith({ ttlMs: 1000 });
    await store.create(session("idle"));
    await store.create(session("busy"));
    live.add("busy");
    vi.setSystemTime(Date.now() + 1500);
    expect(store.size).toBe(1);
    expect(evicted).toEqual(["idle"]);
    live.delete("busy");
    vi.setSystemTime(Date.now() + 900); // touched at the sweep above: not expired yet
    expect(await store.get("busy")).toBeDefined();
    vi.setSystemTime(Date.now() + 1000);
    expect(await store.get("busy")).toBeUndefined();
  });

  it("ends each session when its own idle time is over, in both lists, however they were stored and used", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { store, evicted } = storeWith({ ttlMs: 1000 });
    const start = Date.now();
    const at = (ms: number) => vi.setSystemTime(start + ms);
    await store.create(session("first"));
    at(400);
    await store.create(session("pending", false));
    at(900);
    expect(await store.get("first")).toBeDefined(); // used: ends at 1900
    at(1000);
    expect(store.size).toBe(2);
    at(1399);
    expect(await store.peek("pending")).toBeDefined();
    at(1400);
    expect(evicted).toEqual([]);
    expect(store.size).toBe(1);
    expect(evicted).toEqual(["pending"]);
    at(1899);
    expect(await store.peek("first")).toBeDefined();
    at(1900);
    expect(await store.peek("first")).toBeUndefined();
    // Empty, then a session stored again (set after create): its idle time starts at its last store.
    at(5000);
    await store.create(session("later", false));
    at(5500);
    await store.set(session("later"));
    at(6499);
    expect(store.size).toBe(1);
    at(6500);
    expect(store.size).toBe(0);
    expect(evicted).toEqual(["pending", "first", "later"]);
  });

  it("the shortest TTL (1 ms; 0 is refused) ends idle sessions without spinning on live ones", async () => {
    vi.useFakeTimers();
    const live = new Set(["busy"]);
    const { store } = storeWith({ ttlMs: 1 }, live);
    await store.create(session("busy"));
    vi.advanceTimersByTime(5);
    await store.create(session("idle"));
    vi.advanceTimersByTime(5);
    expect(store.size).toBe(1);
    expect(await store.get("busy")).toBeDefined();
  });
});

describe("MemoryEventStore", () => {
  it("replays what follows an id, and says when some of it was trimmed", async () => {
    const events = new MemoryEventStore({ maxEventsPerStream: 3 });
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) ids.push(await events.append("s", "t", { jsonrpc: "2.0", method: `m${n}` }));
    expect(ids).toEqual(["t/1", "t/2", "t/3", "t/4", "t/5"]);
    expect(await events.replayAfter("s", "t/1")).toEqual({ streamId: "t", events: [], gap: true });
    const replay = await events.replayAfter("s", "t/2");
    expect(replay?.gap).toBeUndefined();
    expect(replay?.events.map((event) => event.id)).toEqual(["t/3", "t/4", "t/5"]);
    expect((await events.replayAfter("s", "t/5"))?.events).toEqual([]);
  });

  it("knows nothing of ids it never wrote, nor of other sessions' streams", async () => {
    const events = new MemoryEventStore();
    await events.append("s", "t", null);
    await events.append("s", "t", null);
    for (const id of ["t/01", "t/1e0", "t/-1", "t/0", "t/", "t/3", "/1", "t", "u/1", "t/ 1", "t/1.0"]) {
      expect(await events.replayAfter("s", id)).toBeUndefined();
    }
    expect(await events.replayAfter("other", "t/1")).toBeUndefined();
  });

  it("forgets a session once its last stream is dropped", async () => {
    const events = new MemoryEventStore();
    await events.append("s", "a", null);
    await events.append("s", "b", null);
    await events.dropStream("s", "a");
    expect(events.streamCount("s")).toBe(1);
    expect(await events.replayAfter("s", "a/1")).toBeUndefined();
    await events.dropStream("s", "b");
    expect(events.sessionCount).toBe(0);
  });
});

describe("MemoryBus", () => {
  it("delivers to every subscriber despite one that throws, and forgets a channel with none left", async () => {
    const bus = new MemoryBus();
    const got: unknown[] = [];
    const stopBad = await bus.subscribe("c", () => {
      throw new Error("bad subscriber");
    });
    const stopGood = await bus.subscribe("c", (message) => got.push(message));
    await bus.publish("c", 1);
    expect(got).toEqual([1]);
    stopBad();
    stopGood();
    await bus.publish("c", 2);
    expect(got).toEqual([1]);
  });
});
