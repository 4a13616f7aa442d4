/** Task ids (unguessable), owners, and who may see a task. */
import { ErrorCode, McpError, echoValue, type JsonObject } from "../index.ts";
import type { McpContext } from "../types/context.ts";
import type { McpRequestAccess } from "../types/extensions.ts";
import type { TaskState } from "../types/tasks.ts";

/** The owner of every task an anonymous caller (auth off) creates: with auth off, the id is the only secret. */
export const ANONYMOUS_OWNER = "anonymous";

const ID_BYTES = 18;
/** Ids drawn per refill of the pool. */
const IDS_PER_POOL = 256;
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
let pool = new Uint8Array(0);
let poolOffset = 0;

/**
 * A new task id: 144 random bits, base64url (24 characters). Ids are the only thing between a task
 * and anyone holding its id when auth is off, so they are never derived from anything.
 *
 * The bits come from a pool filled by one `crypto.getRandomValues` call per 256 ids, each byte used
 * once: one call per id cost about 8 µs in Node (13% of a task-augmented call's CPU in
 * `bench/profile`-style runs), the pool about 0.2 µs (`task_roundtrip_vs_call`, bench/README.md).
 */
export function newTaskId(): string {
  if (poolOffset + ID_BYTES > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(ID_BYTES * IDS_PER_POOL));
    poolOffset = 0;
  }
  let id = "";
  // Three bytes make four base64url characters; 18 bytes make 24, with no padding.
  for (let index = poolOffset; index < poolOffset + ID_BYTES; index += 3) {
    const bits = (pool[index]! << 16) | (pool[index + 1]! << 8) | pool[index + 2]!;
    id += BASE64URL[bits >> 18]! + BASE64URL[(bits >> 12) & 63]! + BASE64URL[(bits >> 6) & 63]! + BASE64URL[bits & 63]!;
  }
  poolOffset += ID_BYTES;
  return id;
}

/**
 * Who owns the tasks `context`'s caller creates: its principal (the token's subject, or the hash of
 * the token), prefixed so that no principal can be named like the anonymous owner.
 */
export function ownerOf(context: McpContext): string {
  return ownerOfPrincipal(context.principal);
}

/** {@link ownerOf} from the principal alone (a listen stream's). */
export function ownerOfPrincipal(principal: string | undefined): string {
  return principal === undefined ? ANONYMOUS_OWNER : `principal:${principal}`;
}

/** The longest task id a request may name; longer ones are refused before any store is asked. */
export const MAX_TASK_ID_LENGTH = 128;

/** Who asks about a task: the owner the request stands for, and what the request may call. */
export interface TaskViewer {
  readonly owner: string;
  readonly access: McpRequestAccess;
}

/**
 * Whether `viewer` may see `task` (read it, answer it, cancel it, list it, listen to it): it is the
 * viewer's own, and the request may call its tool (scopes of its own token, `enabled`), as calling
 * it again would need. A task stored without its tool is no one's to see. The one check of every
 * task method of both wires: a task it refuses is answered as an unknown one, and listed by no one.
 */
export function mayView(task: TaskState, viewer: TaskViewer): boolean {
  return task.owner === viewer.owner && typeof task.tool === "string" && viewer.access.mayCallTool(task.tool);
}

/** The task id a request names, checked: a string of 1 to 128 characters. */
export function readTaskId(params: JsonObject): string {
  const taskId = params.taskId;
  if (typeof taskId !== "string" || taskId.length === 0 || taskId.length > MAX_TASK_ID_LENGTH) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: "taskId" must be a string of 1 to ${MAX_TASK_ID_LENGTH} characters`,
    );
  }
  return taskId;
}

/** The one answer for a task that is unknown, expired, or another owner's. */
export function unknownTask(taskId: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Unknown task: ${echoValue(taskId)}`);
}
