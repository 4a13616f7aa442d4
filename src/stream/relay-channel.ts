/**
 * The channel of a tool run that has no response of its own any more (a legacy task after its
 * `CreateTaskResult` went out): each notification is handed to `relay` (the session's stream), and
 * nothing else goes anywhere. It never streams, never closes, and its sends never reject.
 */
import { NO_HEADERS } from "../http/reply.ts";
import { isNotification, type JsonRpcMessage, type JsonRpcNotification } from "../protocol/jsonrpc.ts";
import { ResponseChannel } from "./channel.ts";

export class RelayChannel extends ResponseChannel {
  readonly #relay: (message: JsonRpcNotification) => Promise<void>;

  constructor(relay: (message: JsonRpcNotification) => Promise<void>) {
    // No response, no keep-alive; `canSend` stays false, so no input request is sent through it.
    super({
      inbound: { disconnect: new AbortController().signal },
      keepAliveMs: 0,
      canStream: false,
      headers: NO_HEADERS,
    });
    this.#relay = relay;
  }

  override send(message: JsonRpcMessage): Promise<void> {
    if (!isNotification(message)) return Promise.resolve();
    try {
      return this.#relay(message).catch(ignore);
    } catch {
      return Promise.resolve();
    }
  }
}

function ignore(): void {}
