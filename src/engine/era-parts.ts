/** What extensions plug in for some eras only: `tools/call` wrappers and `tools/list` decorators. */
import type { McpEra } from "../types/era.ts";

/** One part an extension plugged, and the eras it is for. */
export interface EraPart<T> {
  readonly part: T;
  readonly eras: readonly McpEra[];
}

/** The parts of each era, in plugging order. */
export function partsByEra<T>(entries: readonly EraPart<T>[]): Record<McpEra, T[]> {
  const byEra: Record<McpEra, T[]> = { legacy: [], modern: [] };
  for (const { part, eras } of entries) for (const era of eras) byEra[era].push(part);
  return byEra;
}
