/**
 * The follower a resumable response stream hands its kept events to, when its client resumed on
 * another instance (see `legacy/bus/stream-follow.ts`). One follower at a time: a new one replaces the
 * old, which is told that nothing more comes.
 */
import type { JsonRpcMessage } from "../protocol/jsonrpc.ts";
import type { StreamForward } from "./channel-options.ts";

export class ForwardSlot {
  #forward: StreamForward | undefined;

  /** True while another instance serves the stream's client. */
  get active(): boolean {
    return this.#forward !== undefined;
  }

  /** Hands events to `forward` from now on; the former follower, if another, is told it ends. */
  take(forward: StreamForward): void {
    if (this.#forward?.key === forward.key) return;
    this.#forward?.end();
    this.#forward = forward;
  }

  /** A kept event of the stream, for the follower if there is one. */
  event(id: string, message: JsonRpcMessage): void {
    this.#forward?.event(id, message);
  }

  /** Stops handing events to the follower named `key` (its client went away); they stay in the log. */
  release(key: string): void {
    if (this.#forward?.key === key) this.#forward = undefined;
  }

  /** No follower any more; `tell` says the stream ended (or moved) without a final message for it. */
  letGo(tell: boolean): void {
    const forward = this.#forward;
    this.#forward = undefined;
    if (tell) forward?.end();
  }
}
