/**
 * How {@link RedisTaskStore} writes a task: a hash with one field per field of the record, each
 * holding that field's JSON text, so an update sets or removes single fields (see task-scripts.ts)
 * and a read decodes them into a fresh object.
 */
import type { TaskChange, TaskState } from "../../types/tasks.ts";
import { CHANGE_FIELDS, checkStatus } from "../task-change.ts";

/** A task's hash as field/value pairs, flat (for HSET). */
export function encodeTask(task: TaskState): string[] {
  const pairs: string[] = [];
  for (const [field, value] of Object.entries(task)) {
    if (value !== undefined) pairs.push(field, JSON.stringify(value));
  }
  return pairs;
}

/**
 * A change as UPDATE_TASK's arguments after lastUpdatedAt: how many fields it sets, their
 * field/value pairs, then the fields it removes.
 */
export function encodeTaskChange(change: TaskChange): string[] {
  if (change.status !== undefined) checkStatus(change.status);
  const sets: string[] = [];
  const removes: string[] = [];
  for (const field of CHANGE_FIELDS) {
    const value = change[field];
    if (value === null) removes.push(field);
    else if (value !== undefined) sets.push(field, JSON.stringify(value));
  }
  return [String(sets.length / 2), ...sets, ...removes];
}

/**
 * The task a hash holds, from HGETALL's answer (flat pairs from a script, an object from the
 * command), or undefined when it is empty (the task is gone).
 */
export function decodeTask(hash: unknown): TaskState | undefined {
  const task: Record<string, unknown> = {};
  let fields = 0;
  const take = (field: string, value: unknown): void => {
    fields++;
    // Assigning `__proto__` would set the object's prototype, not a field.
    if (field !== "__proto__") task[field] = JSON.parse(String(value));
  };
  if (Array.isArray(hash)) {
    for (let i = 0; i + 1 < hash.length; i += 2) take(String(hash[i]), hash[i + 1]);
  } else if (hash !== null && typeof hash === "object") {
    for (const [field, value] of Object.entries(hash)) take(field, value);
  }
  return fields === 0 ? undefined : (task as unknown as TaskState);
}
