/**
 * What the soak's clients received, per session and stream, and what the server logged, read back
 * from Redis at the end. Event ids are `<streamId>/<seq>` (mcp-h3's event stores), so each id names
 * its stream.
 *
 * - delivered: distinct event ids the clients received;
 * - duplicated: receptions of an id the same session had already received;
 * - lost: ids the server logged (in Redis) for a stream a client read that the client never
 *   received, counted after every stream's final resumption;
 * - unkept: events sent while the event store could not keep them (Redis away). mcp-h3 gives them
 *   sequence 0, which no kept event has, so they are never replayed; they are counted apart and not
 *   as duplicates of one another;
 * - keptUnderAnotherId: logged ids the client never received under that id, whose message it did
 *   receive live as an unkept event of the same stream: Redis executed the append but its answer
 *   was lost to the restart, so the engine sent the event as unkept. Not lost (the client has the
 *   message), but a client resuming from before it would get it a second time. Counted apart, and
 *   named in the examples.
 */
import { redisKeyNames } from "../helpers/redis-key-names.ts";
import type { RedisWatcher } from "../helpers/redis-target.ts";

export interface LedgerCounts {
  delivered: number;
  duplicated: number;
  lost: number;
  /** Streams the clients read (and the server's log was checked for). */
  streams: number;
  /** Events read back from the server's log for those streams (0 would mean the log was not found). */
  logged: number;
  unkept: number;
  keptUnderAnotherId: number;
}

/** A JSON text in one canonical spelling (the wire and the log may differ in nothing else). */
function normalize(text: string): string {
  if (text === "") return "null"; // a priming event: no data on the wire, `null` in the log
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

export class Ledger {
  /** session id → stream id → sequence numbers received. */
  readonly #received = new Map<string, Map<string, Set<number>>>();
  #duplicated = 0;
  #delivered = 0;
  #unkept = 0;
  /** session id → stream id → the messages of the unkept events received on it (normalized JSON). */
  readonly #unkeptMessages = new Map<string, Map<string, string[]>>();
  /** A few examples of what went wrong, for the report. */
  readonly examples: string[] = [];

  /** Notes one received event; returns false (and counts it) when the session already had it. */
  receive(sessionId: string, eventId: string, data: string): boolean {
    const slash = eventId.lastIndexOf("/");
    const streamId = eventId.slice(0, slash);
    const seq = Number(eventId.slice(slash + 1));
    if (seq === 0) {
      this.#unkept++;
      let byStream = this.#unkeptMessages.get(sessionId);
      if (!byStream) this.#unkeptMessages.set(sessionId, (byStream = new Map()));
      byStream.set(streamId, [...(byStream.get(streamId) ?? []), normalize(data)]);
      return true;
    }
    let streams = this.#received.get(sessionId);
    if (!streams) this.#received.set(sessionId, (streams = new Map()));
    let seen = streams.get(streamId);
    if (!seen) streams.set(streamId, (seen = new Set()));
    if (seen.has(seq)) {
      this.#duplicated++;
      this.#example(`duplicate ${eventId} in session ${sessionId}`);
      return false;
    }
    seen.add(seq);
    this.#delivered++;
    return true;
  }

  #example(text: string): void {
    if (this.examples.length < 10) this.examples.push(text);
  }

  /** Compares with the server's log in Redis (the event store's keys under `prefix`), read with `client`. */
  async settle(client: RedisWatcher, prefix: string): Promise<LedgerCounts> {
    const keys = redisKeyNames(prefix);
    let lost = 0;
    let keptUnderAnotherId = 0;
    let streams = 0;
    let logged = 0;
    for (const [sessionId, byStream] of this.#received) {
      for (const [streamId, seen] of byStream) {
        streams++;
        const entries = await client.xRange(`${keys.session(sessionId)}:stream:${streamId}`, "-", "+");
        logged += entries?.length ?? 0;
        for (const entry of entries ?? []) {
          const seq = Number(entry.id.split("-")[1]);
          if (seen.has(seq)) continue;
          const unkept = this.#unkeptMessages.get(sessionId)?.get(streamId) ?? [];
          const text = entry.message.m;
          const index = typeof text === "string" ? unkept.indexOf(normalize(text)) : -1;
          if (index !== -1) {
            unkept.splice(index, 1);
            keptUnderAnotherId++;
            this.#example(`${streamId}/${seq} in session ${sessionId}: kept, but delivered as unkept (${streamId}/0)`);
            continue;
          }
          lost++;
          this.#example(`lost ${streamId}/${seq} in session ${sessionId}`);
        }
      }
    }
    return {
      delivered: this.#delivered,
      duplicated: this.#duplicated,
      lost,
      streams,
      logged,
      unkept: this.#unkept,
      keptUnderAnotherId,
    };
  }
}
