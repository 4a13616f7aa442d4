/** A task as the 2026-07-28 wire shows it (SEP-2663's Task and DetailedTask). */
import type { JsonObject } from "../../index.ts";
import type { TaskState } from "../../types/tasks.ts";

/** A task as this wire shows it: times as ISO strings; `detailed` adds the result, error or input requests. */
export function modernTask(task: TaskState, detailed: boolean): JsonObject {
  const wire: JsonObject = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  if (task.pollIntervalMs !== undefined) wire.pollIntervalMs = task.pollIntervalMs;
  if (!detailed) return wire;
  // The result as `tools/call` would have answered it on this wire: a complete result.
  if (task.status === "completed" && task.result) wire.result = { ...task.result, resultType: "complete" };
  else if (task.status === "failed" && task.error) wire.error = task.error;
  else if (task.status === "input_required") wire.inputRequests = task.inputRequests ?? {};
  return wire;
}
