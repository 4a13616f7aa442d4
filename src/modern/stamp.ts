/**
 * Decorates modern results: `resultType`, `_meta["io.modelcontextprotocol/serverInfo"]` on every
 * result, and `ttlMs` / `cacheScope` on the six cacheable ones (handler `mcp.cacheHints` →
 * per-definition hint → handler option → `0` / `"private"`).
 */
import type { CacheHints } from "../context.ts";
import type { JsonObject, JsonRpcId } from "../protocol/jsonrpc.ts";
import { META_SERVER_INFO } from "../protocol/meta-keys.ts";
import type { Implementation } from "../protocol/types.ts";

/** Methods whose complete results carry cache hints. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

const DEFAULT_HINTS: Required<CacheHints> = { ttlMs: 0, cacheScope: "private" };

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
  return { ttlMs: ttlMs ?? DEFAULT_HINTS.ttlMs, cacheScope: cacheScope ?? DEFAULT_HINTS.cacheScope };
}

/** The modern decorations of a handler's results: its `serverInfo`, stamped on every result. */
export class ResultStamp {
  readonly #serverInfo: Implementation;
  /** `"_meta":{…serverInfo…}}`, the constant end of a stamped result, serialized once. */
  readonly #metaTail: string;

  constructor(serverInfo: Implementation) {
    this.#serverInfo = serverInfo;
    this.#metaTail = `"_meta":${JSON.stringify({ [META_SERVER_INFO]: serverInfo })}}`;
  }

  /** A new result object with the decorations; the input is not changed. */
  result(result: JsonObject, cacheHints: Required<CacheHints> | undefined): JsonObject {
    const meta = result._meta;
    const stamped: JsonObject = {
      ...result,
      resultType: result.resultType ?? "complete",
      _meta:
        meta && typeof meta === "object"
          ? { ...meta, [META_SERVER_INFO]: this.#serverInfo }
          : { [META_SERVER_INFO]: this.#serverInfo },
    };
    if (cacheHints && stamped.resultType === "complete") {
      stamped.ttlMs = cacheHints.ttlMs;
      stamped.cacheScope = cacheHints.cacheScope;
    }
    return stamped;
  }

  /**
   * The JSON text of the success response `{ jsonrpc, id, result }` with the result stamped, written
   * without building the stamped object: serializing the same `_meta` again on every call showed as a
   * tenth of a simple call's cost. Undefined when the result has a field of its own the stamp would
   * replace or merge into; `result()` handles those.
   */
  successJson(id: JsonRpcId, result: JsonObject, cacheHints: Required<CacheHints> | undefined): string | undefined {
    if (result.resultType !== undefined || result._meta !== undefined) return undefined;
    if (cacheHints && (result.ttlMs !== undefined || result.cacheScope !== undefined)) return undefined;
    const text = JSON.stringify(result);
    // Anything but a JSON object (a `toJSON` may give one) is left to the object path.
    if (text.charCodeAt(0) !== OPEN_BRACE || text.charCodeAt(text.length - 1) !== CLOSE_BRACE) return undefined;
    const hints = cacheHints ? `"ttlMs":${cacheHints.ttlMs},"cacheScope":"${cacheHints.cacheScope}",` : "";
    const head = text.length === 2 ? "{" : `${text.slice(0, -1)},`;
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${head}"resultType":"complete",${hints}${this.#metaTail}}`;
  }
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
