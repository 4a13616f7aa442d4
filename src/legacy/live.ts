/**
 * What a legacy session has in flight in this process: running requests (for cancellation),
 * open response streams (for resumption), its GET stream and the server→client requests waiting
 * for an answer. An entry exists only while something is live, and goes when the session ends.
 */
import type { JsonRpcId } from "../protocol/jsonrpc.ts";
import type { RequestContext } from "../request-context.ts";
import type { ResponseChannel } from "../stream/channel.ts";

/** A server→client request waiting for the client's POSTed answer. */
export interface PendingInput {
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export class LiveSession {
  readonly inflight = new Map<string, RequestContext>();
  readonly streams = new Map<string, ResponseChannel>();
  readonly pending = new Map<string, PendingInput>();
  getStream: ResponseChannel | undefined;

  get idle(): boolean {
    return this.inflight.size === 0 && this.streams.size === 0 && this.pending.size === 0 && !this.getStream;
  }
}

/** Key of a JSON-RPC id in maps: `1` and `"1"` are different requests. */
export function idKey(id: JsonRpcId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

export class LiveRegistry {
  #sessions = new Map<string, LiveSession>();

  /** Number of sessions with something live here. */
  get size(): number {
    return this.#sessions.size;
  }

  get(sessionId: string): LiveSession | undefined {
    return this.#sessions.get(sessionId);
  }

  ensure(sessionId: string): LiveSession {
    let live = this.#sessions.get(sessionId);
    if (!live) this.#sessions.set(sessionId, (live = new LiveSession()));
    return live;
  }

  /** Forgets the entry once nothing is live in it. */
  release(sessionId: string): void {
    if (this.#sessions.get(sessionId)?.idle) this.#sessions.delete(sessionId);
  }

  /** Each session with something live here. */
  entries(): IterableIterator<[string, LiveSession]> {
    return this.#sessions.entries();
  }

  /** Ends everything of a session here: requests aborted, streams closed, waiting inputs rejected. */
  end(sessionId: string, reason: Error): void {
    const live = this.#sessions.get(sessionId);
    if (!live) return;
    this.#sessions.delete(sessionId);
    for (const context of live.inflight.values()) context.abort(reason);
    for (const pending of live.pending.values()) pending.reject(reason);
    for (const channel of live.streams.values()) void channel.finish(undefined);
    void live.getStream?.finish(undefined);
  }
}
