/**
 * Decorates modern results: `resultType`, `_meta["io.modelcontextprotocol/serverInfo"]` on every
 * result, and `ttlMs` / `cacheScope` on those of the methods whose descriptor says `cacheable`
 * (protocol/methods.ts), in order: handler `mcp.cacheHints` → per-definition hint → handler option →
 * `0` / `"private"`.
 */
import type { CacheHints } from "../types/cache-hints.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import { META_SERVER_INFO } from "../protocol/meta-keys.ts";
import type { Implementation } from "../protocol/types.ts";

/** Picks hints in order of precedence; each field falls back independently. */
export function resolveCacheHints(...sources: (CacheHints | undefined)[]): Required<CacheHints> {
  let ttlMs: number | undefined;
  let cacheScope: "public" | "private" | undefined;
  for (const source of sources) {
    if (!source) continue;
    // A handler can set anything on mcp.cacheHints: an invalid field falls through to the next source.
    if (ttlMs === undefined && Number.isSafeInteger(source.ttlMs) && source.ttlMs! >= 0) ttlMs = source.ttlMs;
    if (cacheScope === undefined && (source.cacheScope === "public" || source.cacheScope === "private")) {
      cacheScope = source.cacheScope;
    }
  }
  // Without any: not cached, and private.
  return { ttlMs: ttlMs ?? 0, cacheScope: cacheScope ?? "private" };
}

/** A new result object with the modern decorations; the input is not changed. */
export function stampResult(
  result: JsonObject,
  serverInfo: Implementation,
  cacheHints: Required<CacheHints> | undefined,
): JsonObject {
  const meta = result._meta;
  const stamped: JsonObject = {
    ...result,
    resultType: result.resultType ?? "complete",
    _meta:
      meta && typeof meta === "object"
        ? { ...meta, [META_SERVER_INFO]: serverInfo }
        : { [META_SERVER_INFO]: serverInfo },
  };
  if (cacheHints && stamped.resultType === "complete") {
    stamped.ttlMs = cacheHints.ttlMs;
    stamped.cacheScope = cacheHints.cacheScope;
  }
  return stamped;
}
