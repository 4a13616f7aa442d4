/**
 * The `TaskStore` contract (src/types/tasks.ts) as vitest cases, for any implementation: every
 * method, every bound, expiry, terminal finality, racing terminal updates, paging while tasks
 * expire, listeners released, and copies in and out. A store's test file calls
 * {@link describeTaskStoreContract} with a factory; the stores it makes are closed after each case.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { TaskMessage, TaskState, TaskStatus, TaskStore } from "../../src/index.ts";

/** The bounds a case asks its store for (small, so that reaching them is quick). */
export interface TaskStoreBounds {
  maxTasks?: number;
  maxTasksPerOwner?: number;
  maxTtlMs?: number;
  maxListenersPerTask?: number;
}

/** Makes a fresh, empty store with these bounds (its own keys on a shared server). */
export type TaskStoreFactory = (bounds: TaskStoreBounds) => TaskStore | Promise<TaskStore>;

let counter = 0;

/** A new task of `owner`, created now (or at `createdAt`), kept for `ttlMs`. */
export function newTask(owner: string, fields: Partial<TaskState> = {}): TaskState {
  const createdAt = fields.createdAt ?? Date.now();
  return {
    taskId: `task-${process.pid}-${++counter}-${Math.random().toString(36).slice(2)}`,
    owner,
    tool: "a_tool",
    status: "working",
    createdAt,
    lastUpdatedAt: createdAt,
    ttlMs: 60_000,
    pollIntervalMs: 500,
    ...fields,
  };
}

/** Resolves once `check` answers true (polled every 10 ms); rejects after `guardMs` (a hang guard, not a timing). */
export async function until(check: () => boolean | Promise<boolean>, guardMs = 10_000): Promise<void> {
  const deadline = Date.now() + guardMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met before the hang guard");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Messages a listener got, and a way to wait for the n-th. */
export class Inbox {
  readonly messages: TaskMessage[] = [];
  readonly listener = (message: TaskMessage): void => {
    this.messages.push(message);
  };

  /** Resolves once `count` messages arrived. */
  received(count: number): Promise<void> {
    return until(() => this.messages.length >= count);
  }
}

/**
 * The TTL of the tasks a case watches expire: what the case checks before they do takes a few store
 * calls, far less than this even on a loaded machine.
 */
export const SHORT_TTL_MS = 1_000;

const TERMINAL: TaskStatus[] = ["completed", "failed", "cancelled"];

export function describeTaskStoreContract(name: string, factory: TaskStoreFactory): void {
  describe(`${name}: the TaskStore contract`, () => {
    const opened: TaskStore[] = [];
    const make = async (bounds: TaskStoreBounds = {}): Promise<TaskStore> => {
      const store = await factory(bounds);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close?.();
    });

    it("create stores a task that get answers; an unknown id is undefined; an id taken already is refused", async () => {
      const store = await make();
      const task = newTask("alice", { result: undefined, statusMessage: "starting" });
      expect(await store.create(task)).toBe("created");
      expect(await store.get(task.taskId)).toEqual(JSON.parse(JSON.stringify(task)));
      expect(await store.get("no-such-task")).toBeUndefined();
      expect(await store.get("x".repeat(100_000))).toBeUndefined();
      expect(await store.update("x".repeat(100_000), { status: "cancelled" }, Date.now())).toBeUndefined();
      await expect(store.create({ ...task, owner: "mallory", statusMessage: "mine now" })).rejects.toThrow();
      expect((await store.get(task.taskId))?.owner).toBe("alice");
    });

    it("keeps copies: what a caller changes in what it passed or got changes nothing stored", async () => {
      const store = await make();
      const task = newTask("alice", { inputRequests: { q1: { method: "elicitation/create" } } }) as {
        -readonly [K in keyof TaskState]: TaskState[K];
      };
      await store.create(task);
      task.status = "completed";
      (task.inputRequests as Record<string, unknown>).q1 = "changed";
      const got = (await store.get(task.taskId)) as { status: string; inputRequests: Record<string, unknown> };
      expect(got.status).toBe("working");
      expect(got.inputRequests.q1).toEqual({ method: "elicitation/create" });
      got.status = "failed";
      got.inputRequests.q1 = "changed";
      const result = { content: [{ type: "text", text: "done" }] };
      const updated = (await store.update(task.taskId, { status: "completed", result }, Date.now())) as unknown as {
        result: { content: unknown[] };
      };
      result.content.push({ type: "text", text: "late" });
      updated.result.content.push("mine");
      const listed = (await store.list("alice", undefined, 10))!;
      (listed.tasks[0] as { status: string }).status = "working";
      const final = await store.get(task.taskId);
      expect(final?.status).toBe("completed");
      expect(final?.result).toEqual({ content: [{ type: "text", text: "done" }] });
      expect(final?.inputRequests).toEqual({ q1: { method: "elicitation/create" } });
    });

    it("update applies a change, sets lastUpdatedAt, removes a field on null; unknown tasks stay unknown", async () => {
      const store = await make();
      const task = newTask("alice", { statusMessage: "starting" });
      await store.create(task);
      const waiting = await store.update(
        task.taskId,
        {
          status: "input_required",
          statusMessage: null,
          inputRequests: { a: { method: "sampling/createMessage" } },
          leaseUntil: 123,
        },
        task.createdAt + 5,
      );
      const { statusMessage: _removed, ...rest } = JSON.parse(JSON.stringify(task)) as TaskState;
      expect(waiting).toEqual({
        ...rest,
        status: "input_required",
        lastUpdatedAt: task.createdAt + 5,
        inputRequests: { a: { method: "sampling/createMessage" } },
        leaseUntil: 123,
      });
      expect(waiting).not.toHaveProperty("statusMessage");
      const working = await store.update(
        task.taskId,
        { status: "working", inputRequests: null, statusMessage: "on it" },
        task.createdAt + 9,
      );
      expect(working).not.toHaveProperty("inputRequests");
      expect(working).toMatchObject({ status: "working", statusMessage: "on it", lastUpdatedAt: task.createdAt + 9 });
      expect(await store.get(task.taskId)).toEqual(working);
      expect(await store.update("no-such-task", { status: "completed" }, Date.now())).toBeUndefined();
      expect(await store.get("no-such-task")).toBeUndefined();
    });

    for (const status of TERMINAL) {
      it(`a ${status} task never changes again`, async () => {
        const store = await make();
        const task = newTask("alice");
        await store.create(task);
        const final =
          status === "completed"
            ? { result: { content: [] } }
            : status === "failed"
              ? { error: { code: -32603, message: "boom" } }
              : {};
        const ended = await store.update(task.taskId, { status, ...final }, Date.now());
        expect(ended?.status).toBe(status);
        for (const change of [
          { status: "working" as const },
          { statusMessage: "late" },
          { leaseUntil: 1 },
          { status: "completed" as const, result: { content: [{ type: "text", text: "other" }] } },
        ]) {
          expect(await store.update(task.taskId, change, Date.now() + 1)).toBeUndefined();
        }
        expect(await store.get(task.taskId)).toEqual(ended);
      });
    }

    it("of racing terminal updates exactly one wins, and the task is what the winner wrote", async () => {
      const store = await make();
      const task = newTask("alice");
      await store.create(task);
      const changes = Array.from({ length: 12 }, (_, i) =>
        i % 3 === 0
          ? { status: "completed" as const, result: { content: [{ type: "text", text: `r${i}` }] } }
          : i % 3 === 1
            ? { status: "failed" as const, error: { code: -32603, message: `e${i}` } }
            : { status: "cancelled" as const, statusMessage: `c${i}` },
      );
      const outcomes = await Promise.all(changes.map((change) => store.update(task.taskId, change, Date.now())));
      const winners = outcomes.filter((outcome) => outcome !== undefined);
      expect(winners).toHaveLength(1);
      expect(await store.get(task.taskId)).toEqual(winners[0]);
    });

    it("answers full at the most tasks in all, and stores nothing then", async () => {
      const store = await make({ maxTasks: 3 });
      for (const owner of ["a", "b", "c"]) expect(await store.create(newTask(owner))).toBe("created");
      const refused = newTask("d");
      expect(await store.create(refused)).toBe("full");
      expect(await store.get(refused.taskId)).toBeUndefined();
      expect((await store.list("d", undefined, 10))!.tasks).toEqual([]);
    });

    it("answers full at an owner's most tasks, while other owners still create", async () => {
      const store = await make({ maxTasksPerOwner: 2 });
      expect(await store.create(newTask("alice"))).toBe("created");
      expect(await store.create(newTask("alice"))).toBe("created");
      const refused = newTask("alice");
      expect(await store.create(refused)).toBe("full");
      expect(await store.get(refused.taskId)).toBeUndefined();
      expect(await store.create(newTask("bob"))).toBe("created");
      expect((await store.list("alice", undefined, 10))!.tasks).toHaveLength(2);
    });

    it("forgets a task once its TTL has passed since createdAt, and its room is free again", async () => {
      const store = await make({ maxTasks: 2, maxTasksPerOwner: 2 });
      // Short, yet far above the few calls made before it is checked (a hang guard, not a timing).
      const short = newTask("alice", { ttlMs: SHORT_TTL_MS });
      const long = newTask("alice");
      await store.create(short);
      await store.create(long);
      expect(await store.create(newTask("alice"))).toBe("full");
      await until(async () => (await store.get(short.taskId)) === undefined);
      expect(await store.get(long.taskId)).toBeDefined();
      expect((await store.list("alice", undefined, 10))!.tasks.map((t) => t.taskId)).toEqual([long.taskId]);
      expect(await store.create(newTask("alice"))).toBe("created");
    });

    it("counts the TTL from createdAt: a task created long ago with a short TTL is gone at once", async () => {
      const store = await make();
      const old = newTask("alice", { createdAt: Date.now() - 60_000, ttlMs: 1_000 });
      expect(await store.create(old)).toBe("created");
      expect(await store.get(old.taskId)).toBeUndefined();
      expect((await store.list("alice", undefined, 10))!.tasks).toEqual([]);
    });

    it("keeps no task past its own longest TTL: a TTL of null, or a longer one, gets the store's longest", async () => {
      const store = await make({ maxTtlMs: SHORT_TTL_MS });
      const unlimited = newTask("alice", { ttlMs: null });
      const tooLong = newTask("alice", { ttlMs: 3_600_000 });
      const future = newTask("alice", { createdAt: Date.now() + 3_600_000, ttlMs: null });
      for (const task of [unlimited, tooLong, future]) expect(await store.create(task)).toBe("created");
      expect(await store.get(unlimited.taskId)).toBeDefined();
      await until(async () => {
        const left = await Promise.all([unlimited, tooLong, future].map((task) => store.get(task.taskId)));
        return left.every((task) => task === undefined);
      });
      // Stored as given: the record keeps the TTL the engine granted.
      expect(store.maxTtlMs === undefined || store.maxTtlMs === SHORT_TTL_MS).toBe(true);
    });

    it("lists an owner's tasks oldest first in pages, with nextCursor absent on the last one", async () => {
      const store = await make();
      const base = Date.now();
      const tasks = [5, 1, 3, 2, 4].map((offset) => newTask("alice", { createdAt: base + offset }));
      for (const task of tasks) await store.create(task);
      await store.create(newTask("bob", { createdAt: base }));
      const ids: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = (await store.list("alice", cursor, 2))!;
        expect(page.tasks.length).toBeLessThanOrEqual(2);
        ids.push(...page.tasks.map((task) => task.taskId));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(3);
      expect(ids).toEqual([...tasks].sort((a, b) => a.createdAt - b.createdAt).map((task) => task.taskId));
      expect(await store.list("nobody", undefined, 5)).toEqual({ tasks: [] });
      const all = (await store.list("alice", undefined, 50))!;
      expect(all.tasks).toHaveLength(5);
      expect(all.nextCursor).toBeUndefined();
    });

    it("orders tasks created in the same millisecond by id, and pages through them all", async () => {
      const store = await make();
      const at = Date.now();
      const tasks = Array.from({ length: 7 }, () => newTask("alice", { createdAt: at }));
      for (const task of tasks) await store.create(task);
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (await store.list("alice", cursor, 3))!;
        ids.push(...page.tasks.map((task) => task.taskId));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(ids).toEqual(tasks.map((task) => task.taskId).sort());
    });

    it("a cursor stays valid while tasks expire, the one it names included", async () => {
      const store = await make();
      const base = Date.now();
      // Tasks 0..5, oldest first; 1, 2 and 4 expire soon.
      const tasks = [0, 1, 2, 3, 4, 5].map((i) =>
        newTask("alice", { createdAt: base + i, ttlMs: [1, 2, 4].includes(i) ? SHORT_TTL_MS : 60_000 }),
      );
      for (const task of tasks) await store.create(task);
      const first = (await store.list("alice", undefined, 2))!;
      expect(first.tasks.map((task) => task.taskId)).toEqual([tasks[0]!.taskId, tasks[1]!.taskId]);
      await until(async () => (await store.get(tasks[4]!.taskId)) === undefined);
      const rest = (await store.list("alice", first.nextCursor, 10))!;
      expect(rest.tasks.map((task) => task.taskId)).toEqual([tasks[3]!.taskId, tasks[5]!.taskId]);
      expect(rest.nextCursor).toBeUndefined();
    });

    it("pages by at least one task, whatever the limit", async () => {
      const store = await make();
      const base = Date.now();
      const tasks = [0, 1].map((i) => newTask("alice", { createdAt: base + i }));
      for (const task of tasks) await store.create(task);
      for (const limit of [0, -5, Number.NaN, 0.5]) {
        const page = (await store.list("alice", undefined, limit))!;
        expect(page.tasks.map((task) => task.taskId)).toEqual([tasks[0]!.taskId]);
        expect(page.nextCursor).toBeDefined();
      }
      expect((await store.list("alice", undefined, Number.POSITIVE_INFINITY))!.tasks).toHaveLength(2);
    });

    it("answers undefined for a cursor it never gave", async () => {
      const store = await make();
      await store.create(newTask("alice"));
      for (const cursor of [
        "",
        "garbage",
        "12",
        ".x",
        "1.",
        "-1.x",
        "1e3.x",
        "x".repeat(10_000),
        "99999999999999999.x",
      ]) {
        expect(await store.list("alice", cursor, 10)).toBeUndefined();
      }
    });

    it("delivers what is published to the task's subscribers only, each a copy, until they unsubscribe", async () => {
      const store = await make();
      const task = newTask("alice");
      await store.create(task);
      const [first, second, other] = [new Inbox(), new Inbox(), new Inbox()];
      const mutating = (message: TaskMessage): void => {
        first.listener(message);
        (message as { type: string }).type = "changed";
      };
      const offFirst = await store.subscribe(task.taskId, mutating);
      const offSecond = await store.subscribe(task.taskId, second.listener);
      const offOther = await store.subscribe("another-task", other.listener);
      await store.publish(task.taskId, { type: "cancel" });
      await store.publish(task.taskId, { type: "status", task });
      await second.received(2);
      expect(second.messages).toEqual([{ type: "cancel" }, { type: "status", task: JSON.parse(JSON.stringify(task)) }]);
      await first.received(2);
      offFirst();
      offFirst(); // twice is harmless
      await store.publish(task.taskId, { type: "input", responses: { a: { action: "accept" } } });
      await second.received(3);
      // Published after the first left, delivered to the second in order: the first got nothing more.
      expect(first.messages).toHaveLength(2);
      await store.publish("another-task", { type: "cancel" });
      await other.received(1);
      expect(second.messages).toHaveLength(3);
      offSecond();
      offOther();
      // No listener: dropped, no error.
      await store.publish(task.taskId, { type: "cancel" });
    });

    it("bounds the listeners on one task, and releases them on unsubscribe", async () => {
      const store = await make({ maxListenersPerTask: 3 });
      const task = newTask("alice");
      await store.create(task);
      const inboxes = [new Inbox(), new Inbox(), new Inbox()];
      const offs = await Promise.all(inboxes.map((inbox) => store.subscribe(task.taskId, inbox.listener)));
      await expect(store.subscribe(task.taskId, () => {})).rejects.toThrow(/listeners/);
      // Another task has room of its own.
      const offElse = await store.subscribe("else", () => {});
      offs[0]!();
      const late = new Inbox();
      const offLate = await store.subscribe(task.taskId, late.listener);
      await store.publish(task.taskId, { type: "cancel" });
      await late.received(1);
      await inboxes[2]!.received(1);
      expect(inboxes[0]!.messages).toEqual([]);
      for (const off of [...offs, offLate, offElse]) off();
      // All released: the task takes its most listeners again.
      const again = await Promise.all(inboxes.map((inbox) => store.subscribe(task.taskId, inbox.listener)));
      for (const off of again) off();
    });

    it("a task's listener released and a new one added at once: the new one gets what follows", async () => {
      const store = await make();
      for (let round = 0; round < 5; round++) {
        const inbox = new Inbox();
        const off = await store.subscribe("again", () => {});
        off();
        const offAgain = await store.subscribe("again", inbox.listener);
        await store.publish("again", { type: "cancel" });
        await inbox.received(1);
        offAgain();
      }
    });

    it("a listener that throws does not stop delivery to the others", async () => {
      const store = await make();
      const inbox = new Inbox();
      const offThrowing = await store.subscribe("t", () => {
        throw new Error("listener bug");
      });
      const off = await store.subscribe("t", inbox.listener);
      await store.publish("t", { type: "cancel" });
      await inbox.received(1);
      offThrowing();
      off();
    });
  });
}
