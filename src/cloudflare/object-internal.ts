/**
 * The object's answers to the Worker's own code ({@link InternalMessage}): notifications through
 * the handler's notifier, and the object's bus. A subscription's answer is held open, one JSON line
 * per message; a reader that stops reading has at most {@link MAX_UNREAD} messages queued for it,
 * then its subscription ends (its stream is errored), so no queue grows without a bound.
 */
import type { McpFetchHandler } from "../handler-types.ts";
import type { Bus } from "../types/stores.ts";
import type { InternalMessage } from "./internal.ts";

/** Most messages queued for a subscriber that does not read. */
const MAX_UNREAD = 1_000;

const encoder = new TextEncoder();

export async function answerInternal(handler: McpFetchHandler, bus: Bus, message: InternalMessage): Promise<Response> {
  const notifier = handler.engine.services.notifier;
  switch (message.kind) {
    case "changed":
      await notifier.publish(message.method, message.params);
      return Response.json({ delivered: true });
    case "session": {
      const notification = { jsonrpc: "2.0" as const, method: message.method };
      const sent = message.params ? { ...notification, params: message.params } : notification;
      return Response.json({ delivered: await notifier.notifySession(message.sessionId, sent, {}) });
    }
    case "publish":
      await bus.publish(message.channel, message.message);
      return Response.json({ delivered: true });
    case "subscribe":
      return subscription(bus, message.channel);
  }
}

/** The messages of `channel` from now on, as JSON lines after a first `ready` line. */
async function subscription(bus: Bus, channel: string): Promise<Response> {
  let unsubscribe: (() => void) | undefined;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>(
    {
      start: (opened) => void (controller = opened),
      cancel: () => unsubscribe?.(),
    },
    { highWaterMark: 0 },
  );
  const send = (line: string): void => {
    try {
      // With no high-water mark, the desired size is minus the lines queued and not read.
      if ((controller.desiredSize ?? 0) < -MAX_UNREAD) throw new Error("mcp-h3: a bus subscriber stopped reading");
      controller.enqueue(encoder.encode(`${line}\n`));
    } catch (error) {
      // Not reading, or gone (an errored or closed stream throws): the subscription ends.
      unsubscribe?.();
      try {
        controller.error(error);
      } catch {
        // Errored already.
      }
    }
  };
  unsubscribe = await bus.subscribe(channel, (message) => send(JSON.stringify(message)));
  send("ready");
  return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
}
