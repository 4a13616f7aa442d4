/**
 * An in-memory token-bucket rate limiter keyed by string: each key (a principal, a client address) has a
 * bucket of `capacity` tokens refilled at `refillPerSecond`; a request takes one. Bounded: past `maxKeys`
 * buckets the least recently used one is dropped. Per process: behind several instances, each limits alone.
 */
import { positiveOption } from "../protocol/positive-option.ts";
import { UseOrder } from "../stores/use-order.ts";
import type { TokenBucket, TokenBucketOptions, TokenBucketResult } from "../types/auth-helpers.ts";

const FLOAT_SLACK = 1e-9;

interface Bucket {
  tokens: number;
  /** Milliseconds of the last refill; also the use time the LRU order keeps. */
  lastUsed: number;
}

/**
 * Creates an in-memory token-bucket rate limiter. The intended use is the MCP handler's rate-limit hook,
 * called once per request with the authenticated principal (or the client address when auth is off),
 * answering 429 with `Retry-After` when `take` says no. It works in any h3 middleware too.
 *
 * @example
 * import { H3, getRequestIP } from "h3";
 * import { createTokenBucket } from "mcp-h3";
 *
 * // 20 requests at once, then 5 a second, for up to 10,000 clients.
 * const limiter = createTokenBucket({ capacity: 20, refillPerSecond: 5, maxKeys: 10_000 });
 * const app = new H3().use((event) => {
 *   // The socket's address: X-Forwarded-For is the client's to write, unless your proxy sets it.
 *   const decision = limiter.take(getRequestIP(event) ?? "unknown");
 *   if (!decision.ok) {
 *     return new Response("Too Many Requests", {
 *       status: 429,
 *       headers: { "retry-after": String(decision.retryAfterSeconds) },
 *     });
 *   }
 * });
 */
export function createTokenBucket(options: TokenBucketOptions): TokenBucket {
  const capacity = positiveOption("mcp-h3: createTokenBucket: capacity", options.capacity, { fraction: true });
  const perMs =
    positiveOption("mcp-h3: createTokenBucket: refillPerSecond", options.refillPerSecond, { fraction: true }) / 1000;
  const maxKeys = positiveOption("mcp-h3: createTokenBucket: maxKeys", options.maxKeys);
  const now = options.now ?? Date.now;
  const buckets = new UseOrder<Bucket>();

  function take(key: string, cost = 1): TokenBucketResult {
    // A cost above capacity could never be met: a programming error, said at once rather than as an endless wait.
    if (!(cost >= 0 && cost <= capacity)) throw new RangeError(`cost must be between 0 and capacity, got ${cost}`);
    const time = now();
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: capacity, lastUsed: time };
      // Making room first keeps the map at `maxKeys`: the front is the least recently used key.
      if (buckets.size >= maxKeys) buckets.delete(buckets.entries.keys().next().value!);
      buckets.add(key, bucket);
    } else {
      // A clock that goes back (a fake one, or a wall clock set back) refills nothing rather than draining.
      const elapsed = Math.max(0, time - bucket.lastUsed);
      bucket.tokens = Math.min(capacity, bucket.tokens + elapsed * perMs);
      buckets.touch(key, bucket, Math.max(time, bucket.lastUsed));
    }
    // Refills add up in floating point (0.995 + 0.005 may fall short of 1): a hair below counts as enough.
    if (bucket.tokens >= cost - FLOAT_SLACK) {
      bucket.tokens = Math.max(0, bucket.tokens - cost);
      return { ok: true };
    }
    const waitMs = (cost - bucket.tokens) / perMs;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  return {
    take,
    reset: (key) => {
      buckets.delete(key);
    },
    get size() {
      return buckets.size;
    },
  };
}
