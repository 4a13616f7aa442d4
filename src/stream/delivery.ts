/** How a response channel's messages reach its SSE sink and, on a resumable stream, its event log. */
import type { Incidents } from "../engine/incidents.ts";
import type { JsonRpcMessage, JsonRpcResponse } from "../protocol/jsonrpc.ts";
import { unserializable } from "./answers.ts";
import type { ChannelOptions, StreamLog } from "./channel-options.ts";
import { SseSink, primingFrame } from "./sse.ts";

/** The SSE sink of a response, bounded by `maxStreamBufferBytes` when the handler set one. */
export function responseSink(options: ChannelOptions): SseSink {
  const limits =
    options.maxBufferBytes === undefined
      ? undefined
      : { maxBufferBytes: options.maxBufferBytes, incidents: options.incidents };
  return new SseSink(undefined, options.keepAliveMs, limits);
}

/** Writes the priming event of a resumable stream; when the log fails, only resuming from the very start is lost. */
export async function writePriming(sink: SseSink, log: StreamLog, incidents: Incidents | undefined): Promise<void> {
  try {
    const id = await log.append(null);
    log.written?.(id);
    sink.write(primingFrame(id, log.retryMs));
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
