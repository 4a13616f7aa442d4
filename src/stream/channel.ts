/**
 * The stream of one response (its answer, states and connection are in channel-core.ts), and what a
 * resumable stream adds: a dropped connection is resumed with `Last-Event-ID` while the work goes
 * on, on this instance (`resume`) or on another one that this stream then hands its events to
 * (`forwardTo`), and events another instance kept are written in order (`sendKept`).
 *
 * Like every operation of the channel, these settle and never reject.
 */
import type { JsonRpcMessage } from "../protocol/jsonrpc.ts";
import type { StoredEvent } from "../types/stores.ts";
import { ChannelCore } from "./channel-core.ts";
import type { StreamForward } from "./channel-options.ts";
import { ForwardSlot } from "./forward-slot.ts";
import type { SseSink } from "./sse.ts";

export class ResponseChannel extends ChannelCore {
  /** Another instance serving this stream's client, which every kept event goes to. */
  readonly #forward = new ForwardSlot();

  protected kept(id: string, message: JsonRpcMessage): void {
    this.#forward.event(id, message);
  }

  protected ended(withoutFinal: boolean): void {
    // A final message went to the follower like any event; without one it must hear of the end.
    this.#forward.letGo(withoutFinal);
  }

  /**
   * Sends an event another instance already kept in this stream's log, with its id (it is not
   * logged again). Runs in order with sends. Never rejects.
   */
  sendKept(event: StoredEvent): Promise<void> {
    if (!this.canSend || event.message === null) return Promise.resolve();
    const message = event.message;
    return this.queue.run(async () => {
      if (this.state === "finished") return;
      await this.upgrade();
      await this.write(event.id, message);
    });
  }

  /**
   * From now on hands every event to `forward` (the stream was resumed on another instance); the
   * connection here, if any, closes, and a former follower is told that nothing more comes. False
   * when the stream has finished. Never rejects.
   */
  async forwardTo(forward: StreamForward): Promise<boolean> {
    let taken = false;
    await this.queue.run(() => {
      if (this.state === "finished") return;
      taken = true;
      this.#forward.take(forward);
      this.closeSink();
    });
    return taken;
  }

  /** True while another instance serves this stream's client (see {@link ResponseChannel.forwardTo}). */
  get forwarded(): boolean {
    return this.#forward.active;
  }

  /** Stops handing events to the follower named `key` (its client went away); they stay in the log. */
  unforward(key: string): void {
    this.#forward.release(key);
  }

  /** Closes the connection but not the stream: the client resumes with `Last-Event-ID` (SSE polling). */
  closeConnection(): void {
    if (!this.options.log || this.state === "finished") return;
    this.queue.post(async () => {
      await this.upgrade();
      this.closeSink();
    });
  }

  /**
   * Continues this stream on a new connection: writes the given replayed events, then every later
   * message. Runs in order with sends, so no event is lost or written twice. Never rejects: when
   * the replay cannot be read, the new connection is closed (the client may try again).
   */
  resume(sink: SseSink, replay: () => Promise<StoredEvent[]>): Promise<void> {
    return this.queue.run(async () => {
      let events: StoredEvent[];
      try {
        events = await replay();
      } catch (error) {
        sink.close();
        throw error;
      }
      sink.replay(events);
      // The client is back here: a follower elsewhere gets nothing more.
      this.#forward.letGo(true);
      const last = events.at(-1);
      if (last) this.options.log?.written?.(last.id);
      if (this.state === "finished") {
        sink.close();
        return;
      }
      if (this.state === "waiting") this.adopt(sink);
      this.attach(sink);
    });
  }
}
