/**
 * `notifications/tasks` on `subscriptions/listen` streams (SEP-2663): a stream names the tasks it
 * follows in `notifications.taskIds`; it is honoured for the tasks the listen request may see only
 * (its caller's own, of a tool its token and `enabled` let it call: another owner's id, one of a tool
 * it may not call, or an unknown one, is left out of the acknowledgement alike), and each status
 * change of those, from any instance, is sent as the task's detailed state. A task's tool never
 * changes, so what was honoured once stays the stream's, as its resource subscriptions do.
 */
import { ErrorCode, McpError } from "../../index.ts";
import type { McpListenSource } from "../../types/extensions.ts";
import type { TaskManager } from "../manager.ts";
import { MAX_TASK_ID_LENGTH, ownerOfPrincipal } from "../identity.ts";
import { modernTask } from "./task.ts";

/** The most task ids one listen stream may follow. */
export const MAX_LISTENED_TASKS = 100;

const NOT_TASK_IDS = `Invalid params: "notifications.taskIds" must be an array of at most ${MAX_LISTENED_TASKS} task ids`;

/** The `taskIds` key of listen filters, for `manager`'s tasks. */
export function tasksListenSource(manager: TaskManager): McpListenSource {
  return {
    async accept(value, principal, access) {
      if (!Array.isArray(value)) throw new McpError(ErrorCode.InvalidParams, NOT_TASK_IDS);
      const ids = new Set<string>();
      for (const id of value) {
        if (typeof id !== "string" || id.length === 0 || id.length > MAX_TASK_ID_LENGTH) {
          throw new McpError(ErrorCode.InvalidParams, NOT_TASK_IDS);
        }
        ids.add(id);
        if (ids.size > MAX_LISTENED_TASKS) throw new McpError(ErrorCode.InvalidParams, NOT_TASK_IDS);
      }
      const viewer = { owner: ownerOfPrincipal(principal), access };
      const owned = await Promise.all([...ids].map(async (id) => ((await manager.get(id, viewer)) ? id : undefined)));
      return owned.filter((id) => id !== undefined);
    },
    async open(accepted, _principal, send) {
      const stops: (() => void)[] = [];
      const stopAll = (): void => {
        for (const stop of stops.splice(0)) stop();
      };
      try {
        for (const id of accepted as string[]) {
          stops.push(
            // Shared with every other follower of the task on this instance (a store bounds its listeners).
            await manager.followers.follow(id, (task) => send("notifications/tasks", modernTask(task, true))),
          );
        }
      } catch (error) {
        stopAll();
        throw error;
      }
      return stopAll;
    },
  };
}
