/** Checks of user-given cache hints (modern `ttlMs` / `cacheScope`). */
import type { CacheHints } from "../types/cache-hints.ts";

/** Checks hints given by users: a non-negative safe integer and a known scope. */
export function checkCacheHints(hints: CacheHints | undefined, where: string): void {
  if (!hints) return;
  if (hints.ttlMs !== undefined && !(Number.isSafeInteger(hints.ttlMs) && hints.ttlMs >= 0)) {
    throw new RangeError(`mcp-h3: ${where}: ttlMs must be a non-negative integer`);
  }
  if (hints.cacheScope !== undefined && hints.cacheScope !== "public" && hints.cacheScope !== "private") {
    throw new RangeError(`mcp-h3: ${where}: cacheScope must be "public" or "private"`);
  }
}
