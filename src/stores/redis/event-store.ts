/**
 * An {@link EventStore} on Redis Streams: each SSE stream of a session is one Redis stream whose
 * entry ids are the event sequence numbers, so any instance can replay what another one wrote.
 */
import { positiveOption } from "../../protocol/positive-option.ts";
import { formatEventId, parseEventId } from "../../protocol/event-id.ts";
import type { JsonRpcMessage } from "../../protocol/jsonrpc.ts";
import type { EventReplay, EventStore } from "../../types/stores.ts";
import { RedisConnection, type RedisConnectionOptions } from "./connection.ts";
import { RedisScript } from "./script.ts";
import { slotTag } from "./slot-keys.ts";

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions extends RedisConnectionOptions {
  /** Most events kept per stream; the oldest are dropped past it (default 1,000, as in memory). */
  maxEventsPerStream?: number;
  /**
   * How long a stream's events live without a new one (default 1 hour). The engine drops streams
   * and sessions itself; this bounds what an instance that died could leave behind. A stream that
   * stays quiet longer loses its kept events (a resumption from before the silence gets 400 "no
   * longer available"), never its order: its next event still gets an id above every earlier one.
   */
  ttlMs?: number;
}

// Appends atomically, so two instances writing one stream still give consecutive, increasing ids.
// KEYS: the stream, its counter, the session's set of streams. ARGV: message, max length, TTL, stream id.
//
// Every key expires (nothing is left behind by an instance that died), so a stream quiet for longer
// than the TTL loses its counter; so can a Redis that evicts keys under memory pressure, or one
// restarted without persistence. A counter is therefore (re)created at the Redis clock in
// microseconds, not at 1: it never passes that clock (Redis runs one append at a time, each taking
// several microseconds), so a new counter starts past every id an earlier one gave, and ids of a
// stream never go backwards or repeat however long it was quiet. Chosen over a counter refreshed
// with its session (a refresh that eviction or a restart without persistence still defeats) and
// over one without expiry (left forever by a session that expired while its instance was down).
// A kept stream entry bounds the new start too (a counter evicted alone). Within one
// counter ids stay consecutive, so a replay from an id of an earlier counter sees a gap: 400 "no
// longer available", never events under reused ids. (Lua numbers are doubles: '%d' writes the
// 16 digits that '..' would turn into '1.79e+15'.)
const APPEND = new RedisScript(`
local seq = redis.call('INCR', KEYS[2])
if seq == 1 then
  local now = redis.call('TIME')
  seq = tonumber(now[1]) * 1000000 + tonumber(now[2])
  local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
  if top then seq = math.max(seq, tonumber(string.sub(top[1], 3)) + 1) end
  redis.call('SET', KEYS[2], string.format('%d', seq))
end
local id = string.format('%d', seq)
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '0-' .. id, 'm', ARGV[1])
redis.call('SADD', KEYS[3], ARGV[4])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
return id`);

// Reads the counter and the events after a sequence number in one step. KEYS: stream, counter. ARGV: seq.
const REPLAY = new RedisScript(`
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[1]) >= last + 1 then return {last} end
return {last, redis.call('XRANGE', KEYS[1], '(0-' .. ARGV[1], '+')}`);

/**
 * Keeps SSE events for `Last-Event-ID` replay in Redis. Event ids are `<streamId>/<seq>`, as in
 * {@link MemoryEventStore}, but a stream's first sequence number is the Redis clock in microseconds
 * (`get/1796140375555799`), so its ids keep growing even after its log expired (see `ttlMs`); keys
 * carry the session's hash tag (slot-keys.ts), so one session's keys share a Redis Cluster slot.
 *
 * @example
 * defineMcpHandler({ name: "app", version: "1.0.0", events: new RedisEventStore({ url: process.env.REDIS_URL }) });
 */
export class RedisEventStore implements EventStore {
  readonly maxEventsPerStream: number;
  readonly ttlMs: number;
  readonly #connection: RedisConnection;

  constructor(options: RedisEventStoreOptions = {}) {
    this.maxEventsPerStream = positiveOption("mcp-h3: RedisEventStore maxEventsPerStream", options.maxEventsPerStream, {
      fallback: 1000,
    });
    this.ttlMs = positiveOption("mcp-h3: RedisEventStore ttlMs", options.ttlMs, { fallback: 60 * 60_000 });
    this.#connection = options.connection ?? new RedisConnection(options);
  }

  #keys(sessionId: string, streamId: string): [stream: string, counter: string, streams: string] {
    const base = `${this.#connection.prefix}${slotTag("session", sessionId)}`;
    return [`${base}:stream:${streamId}`, `${base}:seq:${streamId}`, `${base}:streams`];
  }

  async append(sessionId: string, streamId: string, message: JsonRpcMessage | null): Promise<string> {
    const client = await this.#connection.client();
    const seq = await APPEND.run(client, this.#keys(sessionId, streamId), [
      JSON.stringify(message),
      String(this.maxEventsPerStream),
      String(this.ttlMs),
      streamId,
    ]);
    return formatEventId(streamId, String(seq));
  }

  async replayAfter(sessionId: string, lastEventId: string): Promise<EventReplay | undefined> {
    // The sequence number is passed to the script as the id wrote it: 16 digits at most (the Redis clock in µs).
    const parsed = parseEventId(lastEventId);
    if (!parsed) return undefined;
    const { streamId, seq, digits } = parsed;
    const [stream, counter] = this.#keys(sessionId, streamId);
    const client = await this.#connection.client();
    const reply = (await REPLAY.run(client, [stream, counter], [digits])) as [number, [string, string[]][]?];
    const entries = reply[1];
    if (entries === undefined) return undefined; // unknown stream, or an id it never gave
    const events = entries.map(([id, fields]) => ({
      id: formatEventId(streamId, id.slice(2)),
      message: JSON.parse(fields[1]!) as JsonRpcMessage | null,
    }));
    // Sequence numbers are consecutive: a first kept event past seq + 1 means the log was trimmed.
    const first = entries[0] ? Number(entries[0][0].slice(2)) : reply[0] + 1;
    if (first > seq + 1) return { streamId, events: [], gap: true };
    return { streamId, events };
  }

  async dropStream(sessionId: string, streamId: string): Promise<void> {
    const [stream, counter, streams] = this.#keys(sessionId, streamId);
    const client = await this.#connection.client();
    await client.multi().del([stream, counter]).sRem(streams, streamId).exec();
  }

  async dropSession(sessionId: string): Promise<void> {
    const [, , streams] = this.#keys(sessionId, "");
    const client = await this.#connection.client();
    const ids = await client.sMembers(streams);
    const keys = ids.flatMap((id) => this.#keys(sessionId, id).slice(0, 2));
    await client.del([...keys, streams]);
  }

  /** Closes the connections (when this store made them). */
  close(): Promise<void> {
    return this.#connection.close();
  }
}
