/**
 * Judging a reply: its status, and that its body is valid JSON-RPC (a JSON body) or valid SSE whose
 * every event carries a JSON-RPC message. Legacy streams may carry server→client requests: the
 * fuzzer answers them, as a client would, so the call can finish.
 */

/** True for one JSON-RPC 2.0 message (request, notification, success or error response). */
export function isJsonRpcMessage(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return false;
  const id = message.id;
  const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  if (typeof message.method === "string") return !("id" in message) || validId;
  if (!validId && id !== null) return false;
  if ("result" in message)
    return !("error" in message) && typeof message.result === "object" && message.result !== null;
  const error = message.error as Record<string, unknown> | undefined;
  return (
    typeof error === "object" && error !== null && Number.isInteger(error.code) && typeof error.message === "string"
  );
}

/** A JSON body: one message or a non-empty array of them. */
export function checkJsonBody(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `JSON body does not parse: ${text.slice(0, 120)}`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every(isJsonRpcMessage))
      return `not a JSON-RPC batch answer: ${text.slice(0, 120)}`;
    return undefined;
  }
  return isJsonRpcMessage(value) ? undefined : `not a JSON-RPC message: ${text.slice(0, 120)}`;
}

/** One parsed SSE event. */
export interface SseEvent {
  id?: string;
  data: string;
}

/** Splits complete SSE events off `buffer`; returns them and what is left. Malformed lines are reported. */
export function takeSseEvents(buffer: string): { events: SseEvent[]; rest: string; problem?: string } {
  const events: SseEvent[] = [];
  const blocks = buffer.split("\n\n");
  const rest = blocks.pop()!;
  for (const block of blocks) {
    const data: string[] = [];
    let id: string | undefined;
    for (const line of block.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      if (colon <= 0) return { events, rest, problem: `malformed SSE line: ${line.slice(0, 80)}` };
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") data.push(value);
      else if (field === "id") id = value;
      else if (field !== "event" && field !== "retry") return { events, rest, problem: `unknown SSE field: ${field}` };
    }
    if (data.length > 0 || id !== undefined) events.push({ id, data: data.join("\n") });
  }
  return { events, rest };
}
