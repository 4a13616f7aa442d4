/**
 * What a legacy session needs beyond one process when several instances share the stores: the
 * seam `LegacySessions` calls through. The implementation (`legacy/bus/shared-sessions.ts`) plugs
 * in with the `sessionRouting` extension (mcp-h3/shared; the mcp-h3/redis stores bring it); without
 * it every session lives in this process, and none of this is in the bundle.
 */
import type { Answerer } from "../../auth/answerer.ts";
import type { Inbound } from "../../http/inbound.ts";
import type { Reply } from "../../http/reply.ts";
import type { JsonRpcId, JsonRpcNotification, JsonRpcResponse } from "../../protocol/jsonrpc.ts";
import type { ResponseChannel } from "../../stream/channel.ts";
import type { StreamLog } from "../../stream/channel-options.ts";
import type { SseSink } from "../../stream/sse.ts";
import type { EventReplay, SessionData } from "../../types/stores.ts";

/** A POST response stream resumed here whose call this instance does not run (see `bus/stream-follow.ts`). */
export interface FollowRequest {
  inbound: Inbound;
  session: SessionData;
  lastEventId: string;
  /** The replay already read (no gap). */
  found: EventReplay;
  /** The SSE sink of this request's connection. */
  sink: SseSink;
  /** A resumable channel on `log` for the stream; `onDone` runs once when it finishes. */
  channel(log: StreamLog, onDone: () => void): ResponseChannel;
  /** Most streams one session may follow here (`sessions.maxStreamsPerSession`). */
  maxFollowed: number;
  /** The keep-alive interval: a follower checks on the call's instance this often. */
  keepAliveMs: number;
}

/** How {@link SessionRouting.notifyHolder} delivers: whether the stream's channel is here, and the tool its reader must be allowed. */
export interface HolderDelivery {
  readonly heldHere: boolean;
  readonly forTool?: string | undefined;
}

export interface SessionRouting {
  /** Starts hearing from other instances in the background (a failure is tried again next time). */
  ensure(): void;
  /** Hears from other instances; what needs them to be heard (an answer, a change) waits for it. */
  start(): Promise<void>;
  /** Records that this instance holds the session's GET stream; the former holder lets its own go. */
  holdStream(session: SessionData): Promise<void>;
  /** This instance ended the session: every other instance forgets it. */
  ended(sessionId: string): void;
  /** `notifications/cancelled` for a request that does not run here: the instance running it aborts it. */
  cancel(sessionId: string, requestId: JsonRpcId, reason: string | undefined): void;
  /** A client's answer to a server→client request another instance sent; false when none did. */
  deliverResponse(sessionId: string, response: JsonRpcResponse, responder: Answerer | undefined): Promise<boolean>;
  /**
   * A notification for the session's GET stream when no connection here writes it: the stream is
   * held by another instance, or may be (`heldHere`: its channel is here, not connected); false
   * when no instance holds it. With `forTool`, the instance writing it does so only when the
   * stream's reader may call that tool.
   */
  notifyHolder(session: SessionData, message: JsonRpcNotification, delivery: HolderDelivery): Promise<boolean>;
  /** Serves the resumption; undefined when the replay is no longer all kept (answered as an unknown id). */
  follow(request: FollowRequest): Promise<Reply | undefined>;
  /** Stops hearing from other instances (the handler closes). */
  close(): void;
}
