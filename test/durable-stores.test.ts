/**
 * The Durable Object stores (src/stores/durable/) against the SessionStore, EventStore and TaskStore
 * contracts, and the object's bus (`DurableBus`, through the fixture Worker of cloudflare-*.test.ts)
 * against the Bus contract, each store in its own SQLite-backed object of a real workerd, offline. The object
 * answers each method; the engine's side of the store (its liveness checks, its eviction listener)
 * crosses with each call (test/helpers/durable-store-proxy.ts). A restart of workerd between two
 * calls loses nothing the stores keep: the last case shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEventStoreContract } from "./helpers/event-store-contract.ts";
import { describeBusContract } from "./helpers/bus-contract.ts";
import { startDurableMcp } from "./helpers/durable-mcp.ts";
import { remoteBus, remoteEventStore, remoteSessionStore, remoteTaskStore } from "./helpers/durable-store-proxy.ts";
import { describeTaskStoreContract, newTask } from "./helpers/task-store-contract.ts";
import { describeSessionStoreContract, newSession } from "./helpers/session-store-contract.ts";
import { startDurableWorker, type DurableWorker } from "./helpers/workerd-durable.ts";

let worker: DurableWorker | undefined;
const url = (): string => worker!.url;

beforeAll(async () => {
  worker = await startDurableWorker({
    entry: new URL("./fixtures/durable-stores/worker.ts", import.meta.url).pathname,
    classes: [{ className: "StoreHost", binding: "STORES", enableSql: true }],
  });
}, 60_000);
afterAll(() => worker?.close());

describeSessionStoreContract("DurableSessionStore", (bounds) => remoteSessionStore(url(), bounds));
describeEventStoreContract("DurableEventStore", (bounds) => remoteEventStore(url(), bounds));
describeTaskStoreContract("DurableTaskStore", (bounds) => remoteTaskStore(url(), bounds));

describe("the object's bus, through DurableBus", () => {
  let mcp: DurableWorker | undefined;
  beforeAll(async () => {
    mcp = await startDurableMcp();
  }, 60_000);
  afterAll(() => mcp?.close());
  describeBusContract("DurableBus", () => {
    const instances: ReturnType<typeof remoteBus>[] = [];
    return {
      instance: () => {
        const bus = remoteBus(mcp!.url);
        instances.push(bus);
        return bus;
      },
      close: () => instances.forEach((bus) => bus.close()),
    };
  });

  it("ends a subscription whose reader stops reading, past 1,000 queued messages", async () => {
    const answer = (await (await fetch(`${mcp!.url}/bus/stalled`)).json()) as { lines: number; errored: boolean };
    // Erroring the stream drops what it queued: the reader gets the error, not the 1,100 messages.
    expect(answer).toMatchObject({ errored: true });
    expect(answer.lines).toBeLessThan(1_100);
  }, 60_000);
});

describe("the Durable Object stores across a restart of workerd", () => {
  it("keep sessions, subscriptions, principals' places, events and tasks", async () => {
    const sessions = remoteSessionStore(url(), { ttlMs: 60_000 });
    const events = remoteEventStore(url(), {});
    const tasks = remoteTaskStore(url(), { maxTasksPerOwner: 1 });
    const task = newTask("alice");
    expect(await tasks.create(task)).toBe("created");
    const session = newSession({ principal: "alice" });
    expect(await sessions.reservePrincipal!("alice", session.id, 1)).toBe(true);
    expect(await sessions.create(session)).toBe("created");
    expect(await sessions.subscribe!(session.id, "docs://a", 10)).toBe("subscribed");
    const first = await events.append(session.id, "s1", null);
    await events.append(session.id, "s1", { jsonrpc: "2.0", method: "notifications/message" } as never);

    await worker!.restart();

    expect(await sessions.get(session.id)).toEqual(JSON.parse(JSON.stringify(session)));
    expect(await sessions.isSubscribed!(session.id, "docs://a")).toBe(true);
    expect(await sessions.reservePrincipal!("alice", "another", 1)).toBe(false);
    const replay = await events.replayAfter(session.id, first);
    expect(replay?.events.map((event) => event.message)).toEqual([{ jsonrpc: "2.0", method: "notifications/message" }]);
    expect(
      (await tasks.update(task.taskId, { status: "completed", result: { content: [] } }, Date.now()))?.status,
    ).toBe("completed");
    expect(await tasks.create(newTask("alice"))).toBe("full");
    // The counter went on from where it was: no id is given twice.
    expect(await events.append(session.id, "s1", null)).toBe("s1/3");
  }, 60_000);
});
