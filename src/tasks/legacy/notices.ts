/**
 * What a legacy session hears about the tasks it created, on its stream (the GET stream, here or on
 * the instance holding it): `notifications/tasks/status` when a task's status changes, and the
 * notifications its handler sends (progress, log lines, `notify`), marked with the related task.
 * A task is followed from its creation until its work is over (one entry per task running here).
 * Both reach a GET stream only when its reader may see the task (may call its tool, with the
 * stream's own token): a weaker token of the same subject reading the stream hears nothing of it.
 */
import type { JsonRpcNotification } from "../../index.ts";
import type { McpContext } from "../../types/context.ts";
import type { McpRequestAccess } from "../../types/extensions.ts";
import type { TaskState } from "../../types/tasks.ts";
import type { TaskManager } from "../manager.ts";
import type { TaskViewer } from "../identity.ts";
import { legacyStatus, legacyTask, withRelatedTask } from "./task.ts";

interface Followed {
  /** The context of the `tools/call` that created the task: its session and principal. */
  readonly context: McpContext;
  readonly sessionId: string;
  /** The task as its creating request sees it (its owner, what it may call). */
  readonly viewer: TaskViewer;
  /** The task's tool: what a GET stream's reader must be allowed to call to hear of it. */
  readonly tool: string;
  /** The legacy status last told (`CreateTaskResult` told the first). */
  last: string;
}

export class LegacyTaskNotices {
  readonly #manager: TaskManager;
  readonly #followed = new Map<string, Followed>();

  constructor(manager: TaskManager) {
    this.#manager = manager;
    // Changes made on this instance: the handler's input requests, its outcome, a cancel received here.
    manager.onStatus((task) => {
      const followed = this.#followed.get(task.taskId);
      if (followed) this.#tell(followed, task);
    });
  }

  /** Sends `message` of the task's handler (of the tool `tool`) to the session, with the related-task `_meta`. */
  relay(context: McpContext, task: { taskId: string; tool: string }, message: JsonRpcNotification): Promise<void> {
    const sessionId = context.sessionId;
    if (sessionId === undefined) return Promise.resolve();
    const params = withRelatedTask(message.params, task.taskId);
    return context.notifySession(sessionId, message.method, params, { forTool: task.tool }).then(() => undefined);
  }

  /** The handler closes: nothing is followed or told any more (the store may be closed). */
  close(): void {
    this.#followed.clear();
  }

  /** Follows `task`, created by the request of `context` with `access` (nothing without a session). */
  follow(task: TaskState, context: McpContext, access: McpRequestAccess): void {
    const sessionId = context.sessionId;
    if (sessionId === undefined || task.tool === undefined) return;
    const viewer = { owner: task.owner, access };
    this.#followed.set(task.taskId, { context, sessionId, viewer, tool: task.tool, last: legacyStatus(task) });
  }

  /**
   * The task's work is over: its final status is read once more (a cancel sent to another
   * instance changed it there) and told if it was not, and the task is no longer followed.
   */
  end(taskId: string): void {
    const followed = this.#followed.get(taskId);
    if (!followed) return;
    this.#followed.delete(taskId);
    const final = this.#manager.get(taskId, followed.viewer).then((task) => {
      if (task) this.#tell(followed, task);
    });
    this.#manager.incidents.own(final);
  }

  #tell(followed: Followed, task: TaskState): void {
    const status = legacyStatus(task);
    if (status === followed.last) return;
    followed.last = status;
    const sent = followed.context.notifySession(followed.sessionId, "notifications/tasks/status", legacyTask(task), {
      forTool: followed.tool,
    });
    this.#manager.incidents.own(sent);
  }
}
