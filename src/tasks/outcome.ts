/**
 * What a task's handler came to, as the task stores it: its result, or the error it threw, each
 * within the task's size bound.
 */
import { ErrorCode, isMcpError, jsonByteLengthAtMost } from "../index.ts";
import type { JsonObject } from "../index.ts";
import { messageOf } from "./json.ts";
import type { TaskChange, TaskStatus } from "../types/tasks.ts";
import type { ResolvedTasksOptions } from "./options.ts";

/** How a handler's work settled. */
export type Settled = { ok: true; result: JsonObject } | { ok: false; error: unknown };
export const succeeded = (result: JsonObject): Settled => ({ ok: true, result });
export const failed = (error: unknown): Settled => ({ ok: false, error });

/**
 * The terminal status of an outcome: a result is `completed` (an `isError` one too), unless it is
 * larger than `maxResultBytes`; a thrown `McpError` is `failed` with it, anything else `failed`
 * with -32603. An error larger than `maxResultBytes` is stored as a short one saying so: what a
 * handler throws is kept as long as a result is.
 */
export function finalChange(
  options: Pick<ResolvedTasksOptions, "maxResultBytes">,
  outcome: Settled,
): [TaskStatus, TaskChange] {
  if (outcome.ok) {
    const max = options.maxResultBytes;
    if (jsonByteLengthAtMost(outcome.result, max) > max) {
      const message = `The task's result is larger than maxResultBytes (${max} bytes)`;
      return ["failed", { error: { code: ErrorCode.InternalError, message, data: { limit: "maxResultBytes", max } } }];
    }
    return ["completed", { result: outcome.result }];
  }
  const { error } = outcome;
  let wire: JsonObject;
  if (isMcpError(error)) {
    wire = { code: error.code, message: error.message };
    if (error.data !== undefined) wire.data = error.data as JsonObject;
  } else {
    wire = { code: ErrorCode.InternalError, message: `Internal error: ${messageOf(error)}` };
  }
  const max = options.maxResultBytes;
  if (jsonByteLengthAtMost(wire, max) > max) {
    const message = `The task's error is larger than maxResultBytes (${max} bytes)`;
    wire = { code: ErrorCode.InternalError, message, data: { limit: "maxResultBytes", max } };
  }
  return ["failed", { error: wire }];
}

/**
 * The failure stored instead of an outcome the store kept refusing for a whole lease (`error`: its
 * last refusal), so the task says what happened rather than that its instance went away.
 */
export function unstoredOutcome(error: unknown): [TaskStatus, TaskChange] {
  const why = messageOf(error).slice(0, 500);
  const message = `The task finished, but its outcome could not be stored within its lease (${why})`;
  return ["failed", { error: { code: ErrorCode.InternalError, message } }];
}
