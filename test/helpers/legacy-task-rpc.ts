/**
 * The 2025-11-25 tasks wire by hand: a legacy session opened over fetch (with a bearer token when
 * auth is on), its requests, and the final message of an answer, JSON or SSE.
 */
import { expect } from "vitest";
import { POST_HEADERS, toAnswer, type Answer, type RpcMessage } from "./rpc.ts";

const LEGACY = "2025-11-25";

export interface LegacyTaskSession {
  readonly id: string;
  /** One request of the session; its answer read to its end. */
  rpc(method: string, params?: Record<string, unknown>): Promise<Answer>;
  /** The raw POST of one message (a JSON-RPC response, a notification), answer read to its end. */
  send(message: unknown): Promise<Answer>;
  /** POSTs `text` as the body, as it is (JSON that `JSON.stringify` cannot write, e.g. `1e400`). */
  sendText(text: string): Promise<Answer>;
}

let nextId = 1;

/** `initialize` + `notifications/initialized` on `url`, as `token`'s principal when given. */
export async function openTaskSession(
  url: string,
  options: { token?: string; capabilities?: Record<string, object>; version?: string } = {},
): Promise<LegacyTaskSession> {
  const auth: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const params = {
    protocolVersion: options.version ?? LEGACY,
    capabilities: options.capabilities ?? {},
    clientInfo: { name: "legacy-tasks", version: "1" },
  };
  const opened = await fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...auth },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params }),
  });
  const id = opened.headers.get("mcp-session-id");
  await opened.body?.cancel();
  if (!id) throw new Error(`initialize on ${url}: ${opened.status}`);
  const headers = { ...POST_HEADERS, ...auth, "mcp-session-id": id, "mcp-protocol-version": params.protocolVersion };
  const sendText = async (text: string): Promise<Answer> =>
    toAnswer(await fetch(url, { method: "POST", headers, body: text }));
  const send = (message: unknown): Promise<Answer> => sendText(JSON.stringify(message));
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    id,
    send,
    sendText,
    rpc: (method, rpcParams = {}) => send({ jsonrpc: "2.0", id: nextId++, method, params: rpcParams }),
  };
}

/** The final message (the one with an id) of an answer. */
export function finalOf(answer: Answer): RpcMessage {
  const message =
    (answer.json as RpcMessage | undefined) ??
    answer.events.map((event) => JSON.parse(event.data) as RpcMessage).find((m) => "id" in m && !("method" in m));
  expect(message, answer.text).toBeDefined();
  return message!;
}

/** The result of an answer (fails the test on an error). */
export function legacyResult(answer: Answer): Record<string, any> {
  const message = finalOf(answer);
  expect(message.error, answer.text).toBeUndefined();
  return message.result!;
}

/** The error of an answer (fails the test on a result). */
export function legacyError(answer: Answer): { code: number; message: string; data?: unknown } {
  const message = finalOf(answer);
  expect(message.error, answer.text).toBeDefined();
  return message.error!;
}
