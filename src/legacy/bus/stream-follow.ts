/**
 * A POST response stream resumed with `Last-Event-ID` on an instance other than the one running its
 * call. This instance (the follower) replays what the shared log kept, then claims the stream on the
 * bus; the call's instance answers with a `handover` and from then on hands over every event it
 * keeps (already in the log), which the follower writes in the log's order, once each (a missed one
 * is read from the log first). The stream ends here once the final response is written, or when the
 * call's instance says nothing more comes.
 *
 * The call's instance may be gone: a claim, and every check made while following, waits a bounded
 * time for its answer; without one the follower writes what the log has and ends the stream (a later
 * resumption anywhere replays what was kept after). A replay that already ends with the response
 * ends the stream at once, without a claim.
 */
import { isResponse } from "../../protocol/jsonrpc.ts";
import type { ResponseChannel } from "../../stream/channel.ts";
import { sseReply } from "../../stream/sse.ts";
import type { Reply } from "../../http/reply.ts";
import type { StoredEvent } from "../../types/stores.ts";
import type { FollowedStream } from "../state/live.ts";
import type { FollowRequest } from "../state/routing.ts";
import { ResumeReplay } from "../resume/resume-replay.ts";
import { sessionBusMessage } from "./session-bus.ts";
import type { SessionRouter } from "./session-routing.ts";
import type { LegacySessions } from "../state/sessions.ts";
import { OrderedStreamLog } from "../resume/stream-log.ts";
import { storeFailedReply } from "../state/store-failure.ts";
import { sessionHeaders } from "../state/session-headers.ts";

/** How long a claim waits for the call's instance to answer before it counts as gone. */
export const HANDOVER_WAIT_MS = 3_000;

/** Names each follower of this process (with the instance, unique in the bus). */
let claims = 0;

/** The response ends the call: nothing comes after it. */
function endsCall(event: StoredEvent | undefined): boolean {
  return event !== undefined && isResponse(event.message);
}

/**
 * Serves the resumption of a POST response stream this instance has no channel of. `found` is the
 * replay already read (no gap). Undefined when the replay is no longer all kept by the time it is
 * read again: the caller answers as for an unknown id.
 */
export async function followPostStream(
  sessions: LegacySessions,
  router: SessionRouter,
  request: FollowRequest,
): Promise<Reply | undefined> {
  const { session, found, lastEventId, sink, maxFollowed } = request;
  const headers = sessionHeaders(session.id);
  const live = sessions.live.ensure(session.id);
  const earlier = live.followed.get(found.streamId);
  const over = endsCall(found.events.at(-1)) || sessions.mintedHere(found.streamId);
  if (over || (!earlier && live.followed.size >= maxFollowed)) {
    // The call finished (here, or its response is in the log), or this session follows as many
    // streams as it may keep: replay and end.
    sessions.live.release(session.id);
    sink.replay(found.events);
    sink.close();
    return sseReply(sink.stream, headers);
  }
  // A newer resumption here replaces the earlier one (its claim is superseded by this one's).
  earlier?.end();
  const log = new OrderedStreamLog(sessions, session, found.streamId);
  // The client has every event up to its Last-Event-ID: later ones from the log or the bus, never it again.
  log.written(lastEventId);
  const follower = new StreamFollower(sessions, router, session.id, found.streamId, log, request.keepAliveMs);
  const channel = request.channel(log, () => follower.done());
  follower.channel = channel;
  live.followed.set(found.streamId, follower);
  const replay = new ResumeReplay(sessions, session.id, lastEventId);
  await channel.resume(sink, replay.read);
  const replayed = replay.events;
  if (replay.gone || !replayed || sink.isClosed) {
    // Nothing follows the stream here; the client may try again.
    follower.end();
    return replay.gone ? undefined : storeFailedReply(null);
  }
  if (endsCall(replayed.at(-1))) follower.end();
  else {
    channel.onClose({ abort: () => follower.clientLeft() });
    follower.sendClaim();
  }
  return sseReply(sink.stream, headers);
}

/** The follower of one POST response stream (see the file's comment). */
class StreamFollower implements FollowedStream {
  readonly claim: string;
  channel!: ResponseChannel;
  readonly #sessions: LegacySessions;
  readonly #router: SessionRouter;
  readonly #sessionId: string;
  readonly #streamId: string;
  readonly #log: OrderedStreamLog;
  /** How often the call's instance is asked again whether it still runs the call (each keep-alive interval). */
  readonly #recheckMs: number;
  /** Waits for a handover (then the call's instance counts as gone), or for the next check. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ended = false;

  constructor(
    sessions: LegacySessions,
    router: SessionRouter,
    sessionId: string,
    streamId: string,
    log: OrderedStreamLog,
    keepAliveMs: number,
  ) {
    this.claim = `${++claims}`;
    this.#sessions = sessions;
    this.#router = router;
    this.#sessionId = sessionId;
    this.#streamId = streamId;
    this.#log = log;
    this.#recheckMs = keepAliveMs > 0 ? keepAliveMs : 10_000;
  }

  /** Claims the stream (again: the call's instance answers each claim, which tells it still runs). */
  sendClaim(): void {
    if (this.#ended) return;
    this.#router.tell(sessionBusMessage.claim(this.#sessions.instance, this.#sessionId, this.#streamId, this.claim));
    this.#wait(HANDOVER_WAIT_MS, () => this.handover(false));
  }

  deliver(event: StoredEvent): void {
    this.#sessions.incidents.own(this.#write([event]));
  }

  handover(open: boolean): void {
    if (this.#ended) return;
    this.#clearTimer();
    this.#sessions.incidents.own(this.#catchUp(open));
  }

  end(): void {
    this.#ended = true;
    this.#clearTimer();
    this.#sessions.incidents.own(this.channel.finish(undefined));
  }

  /** The client's connection closed before the response: the call's instance stops sending. */
  clientLeft(): void {
    if (this.#ended || this.channel.state === "finished") return;
    this.#router.tell(sessionBusMessage.unclaim(this.#sessions.instance, this.#sessionId, this.#streamId, this.claim));
    this.end();
  }

  /** The channel finished: this follower is forgotten. */
  done(): void {
    this.#ended = true;
    this.#clearTimer();
    const live = this.#sessions.live;
    const entry = live.get(this.#sessionId);
    if (entry?.followed.get(this.#streamId) === this) entry.followed.delete(this.#streamId);
    live.release(this.#sessionId);
  }

  /** Writes what the log kept that this stream has not written yet; then ends it, or checks again later. */
  async #catchUp(open: boolean): Promise<void> {
    const finished = await this.#write(await this.#log.missed());
    if (finished || this.#ended) return;
    if (!open) this.end();
    else this.#wait(this.#recheckMs, () => this.sendClaim());
  }

  /** Writes events in the log's order (each once); true once the response ended the stream. */
  async #write(events: StoredEvent[]): Promise<boolean> {
    for (const event of events) {
      await this.channel.sendKept(event);
      if (endsCall(event)) {
        this.end();
        return true;
      }
    }
    return false;
  }

  #wait(ms: number, then: () => void): void {
    this.#clearTimer();
    this.#timer = setTimeout(then, ms);
    // A follower must not keep a Node process alive.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
