/** Checks of user-given cache hints (modern `ttlMs` / `cacheScope`). */
import { nonNegativeOption } from "../protocol/positive-option.ts";
import type { CacheHints } from "../types/cache-hints.ts";

/** Checks hints given by users: a non-negative safe integer and a known scope. */
export function checkCacheHints(hints: CacheHints | undefined, where: string): void {
  if (!hints) return;
  if (hints.ttlMs !== undefined) nonNegativeOption(`mcp-h3: ${where}: ttlMs`, hints.ttlMs);
  if (hints.cacheScope !== undefined && hints.cacheScope !== "public" && hints.cacheScope !== "private") {
    throw new RangeError(`mcp-h3: ${where}: cacheScope must be "public" or "private"`);
  }
}
