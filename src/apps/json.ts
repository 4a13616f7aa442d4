/**
 * The one JSON check MCP Apps keeps of its own rather than reach into the core for: a line an
 * outside author writes too (docs/guide/writing-an-extension.md).
 */
import type { JsonObject } from "../index.ts";

/** Whether `value` is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
