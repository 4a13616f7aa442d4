/**
 * A legacy (2025-11-25) session driven by hand over fetch, for tests that must choose which
 * instance each request reaches (a real client sends all of them to one URL). No vitest import:
 * the soak script uses it too.
 */
import { liveSse, type LiveSse } from "./live-sse.ts";

export const LEGACY_VERSION = "2025-11-25";

const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A session opened by hand: its id and the headers every later request carries. */
export interface RawSession {
  id: string;
  headers: Record<string, string>;
}

/** `initialize` then `notifications/initialized` on `url`, declaring `capabilities`. */
export async function openRawSession(url: string, capabilities: Record<string, object> = {}): Promise<RawSession> {
  const response = await fetch(url, {
    method: "POST",
    headers: POST_HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: LEGACY_VERSION, capabilities, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  const text = await response.text();
  const id = response.headers.get("mcp-session-id");
  if (response.status !== 200 || !id) throw new Error(`initialize on ${url}: ${response.status} ${text}`);
  const headers = { "mcp-session-id": id, "mcp-protocol-version": LEGACY_VERSION };
  const initialized = await fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.body?.cancel();
  if (initialized.status !== 202) throw new Error(`notifications/initialized on ${url}: ${initialized.status}`);
  return { id, headers };
}

/** POSTs one message of a session; the response is left unread. */
export function postInSession(
  url: string,
  session: RawSession,
  message: unknown,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...session.headers },
    body: JSON.stringify(message),
    signal,
  });
}

/** A `tools/call` message (with a progress token when given). */
export function toolCall(id: number, name: string, args: Record<string, unknown>, progressToken?: string): unknown {
  const params =
    progressToken === undefined ? { name, arguments: args } : { name, arguments: args, _meta: { progressToken } };
  return { jsonrpc: "2.0", id, method: "tools/call", params };
}

/** POSTs a request whose answer is an SSE stream, read live. */
export async function openPostStream(url: string, session: RawSession, message: unknown): Promise<LiveSse> {
  const abort = new AbortController();
  const response = await postInSession(url, session, message, abort.signal);
  const type = response.headers.get("content-type") ?? "";
  if (response.status !== 200 || !type.includes("text/event-stream")) {
    throw new Error(`expected an SSE answer from ${url}, got ${response.status} ${type}: ${await response.text()}`);
  }
  return liveSse(response, abort);
}

/** Opens (or, with `lastEventId`, resumes) a stream of the session with GET on `url`. */
export async function openSessionGet(
  url: string,
  session: RawSession,
  lastEventId?: string,
): Promise<{ response: Response; sse: LiveSse }> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream", ...session.headers };
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  const response = await fetch(url, { method: "GET", headers, signal: abort.signal });
  return { response, sse: liveSse(response, abort) };
}

/** Calls a tool and reads its text answer (JSON or SSE); throws on a JSON-RPC error. */
export async function callText(
  url: string,
  session: RawSession,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const response = await postInSession(url, session, toolCall(1, name, args));
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const body = type.includes("text/event-stream")
    ? [...text.matchAll(/^data: (.*)$/gm)]
        .map((match) => JSON.parse(match[1]!) as Record<string, any>)
        .find((m) => m.id === 1)
    : (JSON.parse(text) as Record<string, any>);
  if (!body?.result) throw new Error(`${name} on ${url}: ${response.status} ${text}`);
  return String(body.result.content?.[0]?.text);
}
