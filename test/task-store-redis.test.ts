/**
 * RedisTaskStore (mcp-h3/redis) against a real redis-server: the TaskStore contract (on a Redis
 * Cluster too), then what only
 * a shared store shows: two store objects with their own connections stand for two instances (a
 * task created on A is read, changed and listed on B; a message published on A reaches a listener
 * on B), a Redis restart (calls reject clearly while it is down, and work again once it is back,
 * listeners included), and Redis expiring the keys itself.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe as vitestDescribe, expect, it } from "vitest";
import { createClient } from "redis";
import { RedisTaskStore } from "../src/_entries/redis.ts";
import { startRedis, type RunningRedis } from "./helpers/redis-server.ts";
import { Inbox, describeTaskStoreContract, newTask, until } from "./helpers/task-store-contract.ts";
import { REDIS, unavailable } from "./helpers/services.ts";
import { redisKeyNames } from "./helpers/redis-key-names.ts";
import { describeOnContractRedis } from "./helpers/redis-contract-keys.ts";

// Every suite of this file needs redis-server: skipped, said loudly, where it is missing (helpers/services.ts).
const describe = vitestDescribe.skipIf(unavailable(REDIS));

let redis: RunningRedis;
let prefixes = 0;
const closing: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const item of closing.splice(0).reverse()) await item.close();
});

describeOnContractRedis(({ options }) =>
  describeTaskStoreContract("RedisTaskStore", (bounds) => new RedisTaskStore({ ...options(), ...bounds })),
);

/** A plain client to look at the keys and channels with, closed after the case. */
async function watch() {
  const watcher = createClient({ url: redis.url });
  await watcher.connect();
  closing.push({ close: () => watcher.close() });
  return watcher;
}

/** Two instances sharing a prefix: each its own connection. */
function twoInstances(options: ConstructorParameters<typeof RedisTaskStore>[0] = {}): [RedisTaskStore, RedisTaskStore] {
  const prefix = `r${++prefixes}:`;
  const make = (): RedisTaskStore => {
    const store = new RedisTaskStore({ url: redis.url, prefix, ...options });
    closing.push(store);
    return store;
  };
  return [make(), make()];
}

describe("RedisTaskStore's options", () => {
  it("refuses a bound that is not a positive whole number when made, rather than taking the default in its place", () => {
    expect(() => new RedisTaskStore({ url: redis.url, maxTasks: 0 })).toThrow(RangeError);
    expect(() => new RedisTaskStore({ url: redis.url, maxTtlMs: 2.5 })).toThrow(/RedisTaskStore maxTtlMs/);
    expect(new RedisTaskStore({ url: redis.url }).maxTasksPerOwner).toBe(1_000);
  });
});

describe("RedisTaskStore across instances", () => {
  it("a task created on A is read, updated and listed on B, and A sees B's change", async () => {
    const [a, b] = twoInstances();
    const task = newTask("alice");
    expect(await a.create(task)).toBe("created");
    expect(await b.get(task.taskId)).toEqual(task);
    const done = await b.update(task.taskId, { status: "completed", result: { content: [] } }, task.createdAt + 1);
    // An empty array stays an array: the result is stored as JSON text, never decoded in Lua.
    expect(done?.result).toEqual({ content: [] });
    expect(await a.get(task.taskId)).toEqual(done);
    expect(
      await a.update(task.taskId, { status: "failed", error: { code: 1, message: "late" } }, Date.now()),
    ).toBeUndefined();
    expect((await b.list("alice", undefined, 10))!.tasks).toEqual([done]);
  });

  it("the caps hold across instances, and racing terminal updates from both have one winner", async () => {
    const [a, b] = twoInstances({ maxTasks: 3, maxTasksPerOwner: 2 });
    expect(await a.create(newTask("alice"))).toBe("created");
    expect(await b.create(newTask("alice"))).toBe("created");
    expect(await a.create(newTask("alice"))).toBe("full");
    const task = newTask("bob");
    expect(await b.create(task)).toBe("created");
    expect(await a.create(newTask("carol"))).toBe("full");
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).update(
          task.taskId,
          { status: i % 2 ? "completed" : "cancelled", statusMessage: `by ${i}` },
          Date.now(),
        ),
      ),
    );
    const winners = outcomes.filter((outcome) => outcome !== undefined);
    expect(winners).toHaveLength(1);
    expect(await a.get(task.taskId)).toEqual(winners[0]);
  });

  it("a message published on A reaches listeners on B and on A; once B's last listener goes, B leaves the channel", async () => {
    const [a, b] = twoInstances();
    const task = newTask("alice");
    await a.create(task);
    const [onA, onB] = [new Inbox(), new Inbox()];
    const offB = await b.subscribe(task.taskId, onB.listener);
    const offA = await a.subscribe(task.taskId, onA.listener);
    await a.publish(task.taskId, { type: "cancel" });
    await b.publish(task.taskId, { type: "input", responses: { k: { action: "accept" } } });
    await onB.received(2);
    await onA.received(2);
    expect(onB.messages).toEqual([{ type: "cancel" }, { type: "input", responses: { k: { action: "accept" } } }]);
    const watcher = await watch();
    const channel = `r${prefixes}:task:${task.taskId}`;
    const subscribers = async (): Promise<number> => Number((await watcher.pubSubNumSub([channel]))[channel]);
    expect(await subscribers()).toBe(2);
    offB();
    await until(async () => (await subscribers()) === 1);
    await a.publish(task.taskId, { type: "cancel" });
    await onA.received(3);
    expect(onB.messages).toHaveLength(2);
    offA();
    await until(async () => (await subscribers()) === 0);
  });

  it("gives a task's keys a TTL no longer than the store's longest, and Redis expires them by itself", async () => {
    const [a] = twoInstances({ maxTtlMs: 60_000 });
    const prefix = `r${prefixes}:`;
    const watcher = await watch();
    const kept = newTask("alice", { ttlMs: null });
    await a.create(kept);
    const names = redisKeyNames(prefix);
    for (const key of [names.task(kept.taskId), names.ownerTasks("alice"), names.ownerTasksByExpiry("alice")]) {
      expect(await watcher.pTTL(key)).toBeGreaterThan(0);
      expect(await watcher.pTTL(key)).toBeLessThanOrEqual(60_000);
    }
    const brief = newTask("bob", { ttlMs: 100 });
    await a.create(brief);
    // No store call from here on: what goes, Redis ends.
    await until(
      async () =>
        (await watcher.keys(names.ownerTasks("bob") + "*")).length === 0 &&
        (await watcher.exists(names.task(brief.taskId))) === 0,
    );
    expect(await watcher.exists(names.task(kept.taskId))).toBe(1);
    // The index of all tasks by expiry is emptied of it by the next create.
    expect(await watcher.zRange(names.tasksByExpiry, 0, -1)).toHaveLength(2);
    await a.create(newTask("carol"));
    expect(await watcher.zRange(names.tasksByExpiry, 0, -1)).toHaveLength(2);
    expect(await watcher.zScore(names.tasksByExpiry, brief.taskId)).toBeNull();
  });
});

describe("RedisTaskStore reading what is in Redis", () => {
  it("a field named __proto__ in a task's hash is not taken as the record's prototype", async () => {
    const [a] = twoInstances();
    const task = newTask("alice");
    await a.create(task);
    const watcher = await watch();
    await watcher.hSet(
      redisKeyNames(`r${prefixes}:`).task(task.taskId),
      "__proto__",
      JSON.stringify({ polluted: true }),
    );
    // get, list and update: the command's reply and the scripts' flat pairs.
    const page = (await a.list("alice", undefined, 10))!;
    const updated = await a.update(task.taskId, { statusMessage: "on it" }, task.createdAt + 1);
    for (const read of [await a.get(task.taskId), page.tasks[0], updated] as unknown as Record<string, unknown>[]) {
      expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
      expect(read.polluted).toBeUndefined();
    }
    expect(updated).toEqual({ ...task, statusMessage: "on it", lastUpdatedAt: task.createdAt + 1 });
  });
});

describe("RedisTaskStore and a Redis restart", () => {
  it("rejects clearly while Redis is down, and works again once it is back, listeners included", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-h3-task-redis-"));
    let own = await startRedis(undefined, { persistDir: dir });
    try {
      const prefix = "restart:";
      const a = new RedisTaskStore({ url: own.url, prefix });
      const b = new RedisTaskStore({ url: own.url, prefix });
      closing.push(a, b);
      const task = newTask("alice");
      await a.create(task);
      const inbox = new Inbox();
      await b.subscribe(task.taskId, inbox.listener);
      await own.stop();
      await expect(a.get(task.taskId)).rejects.toThrow(/^mcp-h3\/redis task store: get failed: /);
      await expect(a.update(task.taskId, { status: "completed" }, Date.now())).rejects.toThrow(/update failed/);
      await expect(a.create(newTask("alice"))).rejects.toThrow(/create failed/);
      await expect(a.publish(task.taskId, { type: "cancel" })).rejects.toThrow(/publish failed/);
      own = await startRedis(own.port, { persistDir: dir });
      await until(async () => (await a.get(task.taskId).catch(() => undefined)) !== undefined, 15_000);
      expect(await a.update(task.taskId, { status: "completed", result: { content: [] } }, Date.now())).toBeDefined();
      // B's subscription came back with its connection: a message published now reaches it.
      await until(async () => {
        await a.publish(task.taskId, { type: "cancel" });
        return inbox.messages.length > 0;
      }, 15_000);
      expect(inbox.messages[0]).toEqual({ type: "cancel" });
    } finally {
      for (const item of closing.splice(0).reverse()) await item.close();
      await own.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
