/** Completion values for a resource template variable or a prompt argument (`completion/complete`). */
import type { McpEvent } from "../types/context.ts";
import type { H3Event } from "h3";

type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
  event: McpEvent,
) => string[] | Promise<string[]>;

/**
 * Runs the completer declared for `name`, if any, and returns its string values; an unknown name gives `[]`.
 * Only own keys count, so a name such as `constructor` never reaches `Object.prototype`.
 *
 * @example
 * await completeFrom({ city: (typed) => ["Oslo", "Osaka"].filter((c) => c.startsWith(typed)) }, event, "city", "Os", {});
 * // ["Oslo", "Osaka"]
 */
export async function completeFrom(
  completers: Partial<Record<string, Completer>> | undefined,
  event: H3Event,
  name: string,
  value: string,
  context: Record<string, string>,
): Promise<string[]> {
  if (completers === undefined || !Object.hasOwn(completers, name)) return [];
  const completer = completers[name];
  if (typeof completer !== "function") return [];
  // Completers are user code: keep only strings, whatever they returned.
  const values: unknown = await completer(value, { arguments: context ?? {} }, event as McpEvent);
  if (!Array.isArray(values)) return [];
  return values.every(isString) ? values : values.filter(isString);
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}
