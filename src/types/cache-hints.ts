/** Cache hints a handler may set for its cacheable result (modern). */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}
