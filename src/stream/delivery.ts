/** How a response channel's messages reach its SSE sink and, on a resumable stream, its event log. */
import type { Incidents } from "../http/incidents.ts";
import type { JsonRpcMessage, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { unserializable } from "./answers.ts";
import type { ChannelOptions, LogOrder, StreamLog } from "./channel-options.ts";
import { SseSink, primingFrame } from "./sse.ts";

/** The SSE sink of a response, bounded by `maxStreamBufferBytes` when the handler set one. */
export function responseSink(options: ChannelOptions): SseSink {
  const limits =
    options.maxBufferBytes === undefined
      ? undefined
      : { maxBufferBytes: options.maxBufferBytes, incidents: options.incidents };
  return new SseSink(undefined, options.keepAliveMs, limits);
}

/**
 * Marks in a resumable stream's log where this connection begins: the priming event, written to the
 * client, where the protocol has one; else, for a log other instances append to as well, an entry
 * the client never sees, so that an event of theirs the channel does not get (its bus message was
 * lost) is read from the log before the next one is written. When the log fails, only resuming
 * from the very start is lost.
 */
export async function markStart(sink: SseSink, log: StreamLog, incidents: Incidents | undefined): Promise<void> {
  if (!log.priming && !log.order) return;
  try {
    const id = await log.append(null);
    log.written?.(id);
    if (log.priming) sink.write(primingFrame(id, log.retryMs));
  } catch (error) {
    incidents?.record("background_failure", error);
  }
}

/** Appends a message to the log and gives its event id; a failing log is reported and gives none. */
export async function appendOrReport(
  log: StreamLog,
  message: JsonRpcMessage,
  incidents: Incidents | undefined,
): Promise<string | undefined> {
  try {
    return await log.append(message);
  } catch (error) {
    incidents?.record("background_failure", error);
    return undefined;
  }
}

/** Writes one message; a final response JSON cannot carry is replaced by the call's error. */
export function sendMessage(sink: SseSink, message: JsonRpcMessage, id: string | undefined): void {
  try {
    sink.send(message, id);
  } catch (error) {
    if (!("id" in message) || "method" in message) throw error;
    sink.send(unserializable(message as JsonRpcResponse, error), id);
  }
}

/**
 * Writes a kept event in the log's order: first what other instances kept before it, once each.
 * The sink is asked for after the log is read: the connection may have changed meanwhile. When
 * what came before could not be read, the connection is closed instead (see {@link LogOrder}).
 */
export async function writeInLogOrder(
  log: StreamLog | undefined,
  id: string,
  message: JsonRpcMessage,
  sink: () => SseSink | undefined,
): Promise<void> {
  const earlier = log?.order ? await log.order(id) : NONE_EARLIER;
  if (earlier === "written") return;
  const target = sink();
  if (!target) return;
  if (earlier === "unreadable") return target.close();
  for (const event of earlier) if (event.message !== null) sendMessage(target, event.message, event.id);
  sendMessage(target, message, id);
}

const NONE_EARLIER: LogOrder = [];
