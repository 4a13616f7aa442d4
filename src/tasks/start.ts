/**
 * A `tools/call` turned into a task: the handler runs in a context of its own (`mcp.task`, the
 * task's `signal`, its input requests), the task is stored before the answer names it, and the
 * work goes on after the request was answered, owned by the incident counter and kept alive on
 * hosts that end work with the response (`waitUntil`).
 */
import { ErrorCode, McpError } from "../index.ts";
import type { JsonObject, JsonRpcNotification } from "../index.ts";
import type { McpTask } from "../types/context.ts";
import type { McpInputRequest, McpToolCall } from "../types/extensions.ts";
import type { TaskChange, TaskState, TaskStatus } from "../types/tasks.ts";
import type { TaskManager } from "./manager.ts";
import { newTaskId, ownerOf } from "./identity.ts";
import { keepAlive } from "./keep-alive.ts";
import { RunningTask } from "./running.ts";
import { failed, finalChange, succeeded } from "./outcome.ts";

/** How a wire wants a call run as a task. */
export interface StartPlan {
  /** The TTL the client asked for (legacy `params.task.ttl`); cut to `maxTtlMs`. Undefined: the default. */
  readonly ttlMs?: number;
  /**
   * Modern: the task is created one turn of the event loop after the handler started (a 0 ms timer
   * set before it starts), so once it waits on a timer or I/O. Input it asks for before that is
   * answered by the request itself (an MRTR round, no task yet); an `"optional"` tool that is done
   * by then is answered at once, a `"required"` one as a task already finished. Legacy (false):
   * the task is created before the handler runs.
   */
  readonly defer: boolean;
  /**
   * How the task's input requests are answered once it exists. Default: the task goes
   * `input_required` with them in `inputRequests`, until {@link TaskManager.deliverInput} answers.
   */
  readonly ask?: (request: McpInputRequest, task: McpTask) => Promise<unknown>;
  /** Where the handler's notifications go (see `McpToolRun.relay`), with the task's id; legacy: the session's stream. */
  readonly relay?: (message: JsonRpcNotification, taskId: string) => Promise<void>;
  /** Who owns the task (default: the caller's principal, else anonymous); legacy binds an anonymous caller to its session. */
  readonly owner?: string;
  /** Runs once the task's work is over and its outcome stored (or refused: already cancelled). */
  readonly onEnd?: () => void;
}

/** What a started call became: a task, or (deferred, optional tool done at once) its plain result. */
export type StartOutcome = { readonly task: TaskState } | { readonly result: JsonObject };

/** Status messages are cut to this many characters. */
const MAX_STATUS_MESSAGE = 1000;

/** The first turn of the event loop from now; `cancel` clears its timer once the race is decided otherwise. */
function turn(): { readonly promise: Promise<"turn">; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<"turn">((resolve) => (timer = setTimeout(() => resolve("turn"), 0)));
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Runs `call` as a task of `manager` (see {@link StartPlan}); refused before its handler starts when
 * this instance runs its most task handlers (in all, or for the owner).
 */
export async function startTask(manager: TaskManager, call: McpToolCall, plan: StartPlan): Promise<StartOutcome> {
  const running = new RunningTask(manager, newTaskId(), plan.owner ?? ownerOf(call.context));
  manager.admit(running);
  try {
    return await run(manager, running, call, plan);
  } catch (error) {
    // Whatever failed before the task was followed, its place among the running is freed.
    running.close();
    throw error;
  }
}

async function run(
  manager: TaskManager,
  running: RunningTask,
  call: McpToolCall,
  plan: StartPlan,
): Promise<StartOutcome> {
  const { taskId, owner } = running;
  // A wire starts a task only for a tool it found; the task is that tool's (see `mayView`).
  const tool = call.tool!.name;
  // Set once, before the store is asked to create the task: from then on the call is a task, and
  // what the handler asks or says goes to it (its writes queue behind the creation).
  let isTask = false;
  let statusMessage: string | undefined;
  const task: McpTask = {
    id: taskId,
    setStatusMessage(message) {
      statusMessage = String(message).slice(0, MAX_STATUS_MESSAGE);
      if (!isTask) return Promise.resolve();
      return running.write({ statusMessage }).then(() => undefined);
    },
  };
  // Nothing runs for a request the store refuses: what can refuse it comes before the handler
  // starts. Listening on the task's channel first (a store that is away refuses here, both eras);
  // legacy creates the task before the handler too. Modern creates it only after the first turn (a
  // call that ends in it, an MRTR round or an optional tool done at once, stores nothing), so only
  // a store that fills up or goes away within that turn refuses a call whose handler began.
  await running.listen();
  // The turn is counted from before the handler starts, so that any timer or I/O it waits on ends
  // after the decision, whatever the time it takes to get there (a loaded machine, a cold schema).
  const firstTurn = plan.defer ? turn() : undefined;
  // Asked through the request (before the task exists): an MRTR round may end the call first.
  let viaRequest = 0;
  const relay = plan.relay;
  const begin = (): Promise<JsonObject> =>
    call.run({
      signal: running.controller.signal,
      task,
      ...(relay ? { relay: (message: JsonRpcNotification) => relay(message, taskId) } : {}),
      ask(request, answerViaRequest) {
        if (isTask) return plan.ask ? plan.ask(request, task) : running.ask(request);
        viaRequest++;
        const answer = answerViaRequest();
        answer.then(
          () => viaRequest--,
          () => viaRequest--,
        );
        return answer;
      },
    });
  // Legacy: the task exists before the handler runs, so all it asks goes through the task.
  let work = plan.defer ? begin() : undefined;
  // Before the call is a task (modern: its first turn), the request being cancelled (an MRTR round
  // answered, or the client gone as the request's stream saw it) takes the work with it. Watched
  // without the request's `signal`, which would build its response stream: a task call answered at
  // once needs none (`task_roundtrip_vs_call`). Legacy decides at once, so it does not watch.
  if (work) {
    call.onCancel((reason) => {
      if (!isTask) running.controller.abort(reason);
    });
  }

  const ttlMs = manager.ttlFor(plan.ttlMs);
  const store = (status: TaskStatus, change: TaskChange = {}): Promise<TaskState> =>
    createTask(manager, running, { taskId, owner, tool, ttlMs, statusMessage, status, change });

  if (work) {
    const first = await Promise.race([work.then(succeeded, failed), firstTurn!.promise]);
    // A call that ended first leaves no timer behind (one per call under load).
    firstTurn!.cancel();
    if (running.controller.signal.aborted || viaRequest > 0) {
      // The request answered input_required (or went away): this call is over, no task.
      running.close();
      return { result: await work };
    }
    if (first !== "turn") {
      if (call.tool?.task !== "required") {
        running.close();
        if (first.ok) return { result: first.result };
        throw first.error;
      }
      const task = await store(...finalChange(manager.options, first));
      running.close();
      return { task };
    }
  }
  // Decided before awaiting the store: a question asked while a slow store creates the task waits
  // on the task, never on this request (test/tasks-slow-store.test.ts).
  isTask = true;
  const creating = store("working");
  running.writeAfter(creating);
  const stored = await creating;
  work ??= begin();
  // The store forgets the task then (ttlFor gave no more than it keeps).
  follow(manager, running, work, call, plan.onEnd, stored.createdAt + (stored.ttlMs ?? ttlMs));
  return { task: stored };
}

/** Stores the task (listened to since before the handler started, so a cancel is never missed). */
async function createTask(
  manager: TaskManager,
  running: RunningTask,
  init: {
    taskId: string;
    owner: string;
    tool: string;
    ttlMs: number;
    statusMessage: string | undefined;
    status: TaskStatus;
    change: TaskChange;
  },
): Promise<TaskState> {
  const now = Date.now();
  const { taskId, status, change } = init;
  const state: TaskState = {
    taskId,
    owner: init.owner,
    tool: init.tool,
    status,
    ...(init.statusMessage === undefined ? {} : { statusMessage: init.statusMessage }),
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: init.ttlMs,
    pollIntervalMs: manager.options.pollIntervalMs,
    ...(change.result ? { result: change.result } : {}),
    ...(change.error ? { error: change.error } : {}),
    ...(status === "working" ? { leaseUntil: now + manager.options.leaseMs } : {}),
  };
  try {
    const outcome = await manager.options.store.create(state);
    if (outcome === "full") {
      throw new McpError(ErrorCode.InternalError, "Too many tasks: the task store is full; try again later", {
        limit: "tasks",
      });
    }
  } catch (error) {
    running.controller.abort(error);
    running.close();
    throw error;
  }
  return state;
}

/** The rest of a task's life: its outcome stored (at most once, never over a cancel), its lease renewed meanwhile. */
function follow(
  manager: TaskManager,
  running: RunningTask,
  work: Promise<JsonObject>,
  call: McpToolCall,
  onEnd: (() => void) | undefined,
  expiresAt: number,
): void {
  // Released once the outcome is stored, or before: cancelled, expired or gone, whatever the handler does.
  const released = new Promise<void>((resolve) => running.onClose(resolve));
  running.startLease(expiresAt);
  const done = work
    .then(succeeded, failed)
    .then((outcome) => {
      const [status, change] = finalChange(manager.options, outcome);
      return running.finish({ ...change, status, inputRequests: null });
    })
    .finally(() => running.close());
  manager.incidents.own(done);
  manager.incidents.own(released.then(onEnd));
  keepAlive(call.event, released);
}
