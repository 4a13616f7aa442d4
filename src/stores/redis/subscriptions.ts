/**
 * A legacy session's `resources/subscribe` URIs on Redis: one set per session, beside the
 * session's key and owned by it. Subscribing is one round trip (a script: the session must exist,
 * the count is checked and the URI added atomically, so the cap holds across instances); an
 * update's delivery asks SISMEMBER, O(1) whatever the session holds. The session's own value
 * never holds them, so no other request reads or rewrites them.
 *
 * The set lives as long as its session, in its slot (session-keys.ts): {@link RedisSessionStore}
 * deletes it with the session and gives it a TTL of the session's plus
 * {@link SUBSCRIPTIONS_TTL_SLACK_MS} whenever it writes the session, reads it with a move in its
 * index due (at least once per `INDEX_TOUCH_MS` of use, see index-touches.ts) or refreshes a live
 * one, so it outlives the session's key by less than that slack, never the other way round.
 */
import type { SubscribeOutcome } from "../../types/stores.ts";
import type { RedisConnection } from "./connection.ts";
import { INDEX_TOUCH_MS } from "./index-touches.ts";
import { RedisScript } from "./script.ts";
import type { SessionKeys } from "./session-keys.ts";

/**
 * How much longer than its session's TTL the set is kept: the session key's TTL is refreshed by
 * every read, the set's only when the index moves, which lags a read by under `INDEX_TOUCH_MS`.
 */
const SUBSCRIPTIONS_TTL_SLACK_MS = 2 * INDEX_TOUCH_MS;

/**
 * Adds a URI to a session's set when the session exists and holds fewer than the cap (a URI held
 * already is kept at any count). KEYS: the session's key, its set. ARGV: the URI, the cap, the set's
 * TTL (ms). Returns 1 when the set holds it, 0 when full, -1 when the session is gone (then nothing
 * is written).
 */
const SUBSCRIBE = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then
  if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
  redis.call('SADD', KEYS[2], ARGV[1])
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`);

const OUTCOMES: Record<string, SubscribeOutcome> = { "1": "subscribed", "0": "full", "-1": "ended" };

/** The subscription sets of the sessions of one {@link RedisSessionStore}. */
export class SubscriptionSets {
  readonly #connection: RedisConnection;
  readonly #keys: SessionKeys;
  /** The TTL a set is given: its session's and the slack. */
  readonly ttlMs: number;

  constructor(connection: RedisConnection, keys: SessionKeys, sessionTtlMs: number) {
    this.#connection = connection;
    this.#keys = keys;
    this.ttlMs = sessionTtlMs + SUBSCRIPTIONS_TTL_SLACK_MS;
  }

  /** As `SessionStore.subscribe` promises; one round trip. */
  async subscribe(sessionId: string, uri: string, max: number): Promise<SubscribeOutcome> {
    const client = await this.#connection.client();
    // A cap past what Lua's numbers hold exactly is no cap at all.
    const cap = String(Number.isSafeInteger(max) ? max : Number.MAX_SAFE_INTEGER);
    const keys = [this.#keys.session(sessionId), this.#keys.subscriptions(sessionId)];
    const answer = await SUBSCRIBE.run(client, keys, [uri, cap, String(this.ttlMs)]);
    const outcome = OUTCOMES[String(answer)];
    if (!outcome) throw new Error(`mcp-h3/redis: unexpected answer to subscribe: ${String(answer).slice(0, 40)}`);
    return outcome;
  }

  async unsubscribe(sessionId: string, uri: string): Promise<void> {
    const client = await this.#connection.client();
    await client.sRem(this.#keys.subscriptions(sessionId), uri);
  }

  async isSubscribed(sessionId: string, uri: string): Promise<boolean> {
    const client = await this.#connection.client();
    return Number(await client.sIsMember(this.#keys.subscriptions(sessionId), uri)) === 1;
  }
}
