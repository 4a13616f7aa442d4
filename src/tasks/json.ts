/**
 * Two one-liners the tasks extension keeps of its own rather than reach into the core for: what an
 * outside author writes in a line, the extension writes too (docs/guide/writing-an-extension.md).
 */
import type { JsonObject } from "../index.ts";

/** Whether `value` is a JSON object (not null, not an array): the first check of any client value. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The message of a thrown value, whatever was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
