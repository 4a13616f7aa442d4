/**
 * The filter of a `subscriptions/listen` stream: read from the client's `notifications` (hostile
 * data: shape, count and length checked in one bounded pass), narrowed to what this server honours,
 * and asked once per change whether the stream wants it.
 */
import type { ChangeMessage } from "../../context/change-feed.ts";
import { INVALID_PARAMS, McpError } from "../../protocol/errors.ts";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.ts";
import type { ServerCapabilities } from "../../protocol/types.ts";
import { uriTooLong } from "../../dispatch/resources.ts";

/** What a listen stream delivers. */
export interface Filter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  /**
   * The URIs whose `notifications/resources/updated` the stream gets: a Set, so delivering an update
   * costs one lookup whatever the number of URIs (an array's `includes` over 80,000 URIs blocked the
   * loop 14 ms per update for each such stream).
   */
  resourceSubscriptions?: ReadonlySet<string>;
}

/** The limits a filter is read under. */
export interface FilterLimits {
  /** Most distinct URIs in `resourceSubscriptions` (`maxSubscriptions`). */
  maxSubscriptions: number;
  /** Longest URI (`maxUriLength`). */
  maxUriLength: number;
}

const LIST_CHANGED: ReadonlyMap<string, "toolsListChanged" | "promptsListChanged" | "resourcesListChanged"> = new Map([
  ["notifications/tools/list_changed", "toolsListChanged"],
  ["notifications/prompts/list_changed", "promptsListChanged"],
  ["notifications/resources/list_changed", "resourcesListChanged"],
]);

const NOT_A_FILTER = 'Invalid params: "notifications" must be a subscription filter object';

/**
 * The part of the requested filter this server can honour, or the `-32602` that refuses it: not a
 * filter object, a URI longer than `maxUriLength`, or more distinct URIs than `maxSubscriptions`.
 * URIs are checked and collected in one pass that stops at the first problem, so a hostile array
 * costs at most `maxSubscriptions + 1` Set insertions whatever its length. Without the
 * `resources.subscribe` capability the URIs are only type-checked: nothing of them is kept.
 *
 * @example
 * readFilter({ resourceSubscriptions: ["a://1", "a://1"] }, capabilities, limits);
 * // { resourceSubscriptions: Set { "a://1" } }
 */
export function readFilter(requested: unknown, capabilities: ServerCapabilities, limits: FilterLimits): Filter {
  if (!isObject(requested)) throw new McpError(INVALID_PARAMS, NOT_A_FILTER);
  const { tools, prompts, resources } = capabilities;
  const filter: Filter = {};
  for (const [key, enabled] of [
    ["toolsListChanged", tools?.listChanged],
    ["promptsListChanged", prompts?.listChanged],
    ["resourcesListChanged", resources?.listChanged],
  ] as const) {
    const value = requested[key];
    if (value !== undefined && typeof value !== "boolean") throw new McpError(INVALID_PARAMS, NOT_A_FILTER);
    if (value === true && enabled) filter[key] = true;
  }
  const uris = requested.resourceSubscriptions;
  if (uris === undefined) return filter;
  if (!Array.isArray(uris)) throw new McpError(INVALID_PARAMS, NOT_A_FILTER);
  if (!resources?.subscribe) {
    if (uris.some((uri) => typeof uri !== "string")) throw new McpError(INVALID_PARAMS, NOT_A_FILTER);
    return filter;
  }
  const kept = new Set<string>();
  for (const uri of uris) {
    if (typeof uri !== "string") throw new McpError(INVALID_PARAMS, NOT_A_FILTER);
    const tooLong = uriTooLong(uri, limits.maxUriLength);
    if (tooLong) throw tooLong;
    kept.add(uri);
    if (kept.size > limits.maxSubscriptions) throw tooMany(limits.maxSubscriptions);
  }
  if (kept.size > 0) filter.resourceSubscriptions = kept;
  return filter;
}

function tooMany(max: number): McpError {
  return new McpError(
    INVALID_PARAMS,
    `Invalid params: resourceSubscriptions names more than maxSubscriptions (${max}) distinct URIs`,
    { limit: "maxSubscriptions", max },
  );
}

/** The honoured filter as the acknowledgement shows it (URIs as an array, in the client's order). */
export function acknowledged(filter: Filter): JsonObject {
  const { resourceSubscriptions, ...flags } = filter;
  return resourceSubscriptions ? { ...flags, resourceSubscriptions: [...resourceSubscriptions] } : { ...flags };
}

/** Whether a stream with `filter` gets `change`: constant time, whatever the filter holds. */
export function wants(filter: Filter, change: ChangeMessage): boolean {
  const flag = LIST_CHANGED.get(change.method);
  if (flag) return filter[flag] === true;
  if (change.method === "notifications/resources/updated") {
    const uri = change.params?.uri;
    return typeof uri === "string" && filter.resourceSubscriptions?.has(uri) === true;
  }
  return false;
}
