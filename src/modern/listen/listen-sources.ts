/**
 * The keys of a `subscriptions/listen` filter that extensions serve (`McpExtensionPoint.listen`,
 * e.g. the tasks extension's `taskIds`): each source judges its part of the client's filter, and
 * sends its notifications on the stream until the stream ends.
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.ts";
import type { McpListenSource, McpRequestAccess } from "../../types/extensions.ts";

/** What each source honours of the filter, by key (only keys a source serves and the client asked for). */
export type AcceptedSources = Map<string, { source: McpListenSource; accepted: JsonObject[string] }>;

/** Whether `requested` asks for a key some source serves (then {@link acceptSources} has work to do). */
export function asksSources(sources: ReadonlyMap<string, McpListenSource>, requested: unknown): boolean {
  if (sources.size === 0 || !isObject(requested)) return false;
  for (const key of sources.keys()) if (key in requested) return true;
  return false;
}

/**
 * Asks each source for its key of `requested`, with what the listen request may call (`access`); a
 * source's `McpError` refuses the listen.
 */
export async function acceptSources(
  sources: ReadonlyMap<string, McpListenSource>,
  requested: unknown,
  principal: string | undefined,
  access: McpRequestAccess,
): Promise<AcceptedSources> {
  const accepted: AcceptedSources = new Map();
  if (!asksSources(sources, requested)) return accepted;
  for (const [key, source] of sources) {
    if (!(key in (requested as JsonObject))) continue;
    const honoured = await source.accept((requested as JsonObject)[key], principal, access);
    if (honoured !== undefined) accepted.set(key, { source, accepted: honoured });
  }
  return accepted;
}

/** What the acknowledgement shows of the accepted sources. */
export function acknowledgedSources(accepted: AcceptedSources): JsonObject {
  const shown: JsonObject = {};
  for (const [key, entry] of accepted) shown[key] = entry.accepted;
  return shown;
}

/** Opens every accepted source; the returned function stops them all (those opened before a failure too). */
export async function openSources(
  accepted: AcceptedSources,
  principal: string | undefined,
  send: (method: string, params: JsonObject) => void,
): Promise<() => void> {
  const stops: (() => void)[] = [];
  const stopAll = (): void => {
    for (const stop of stops.splice(0)) stop();
  };
  try {
    for (const { source, accepted: value } of accepted.values()) stops.push(await source.open(value, principal, send));
  } catch (error) {
    stopAll();
    throw error;
  }
  return stopAll;
}
