/**
 * What the hostile suite shares: a server with a few tools whose side effects are recorded, modern and
 * legacy requests written by hand, a "victim" session whose state an attack must not see or change,
 * and the check that the server still serves both eras after an attack.
 */
import { expect } from "vitest";
import {
  defineMcpHandler,
  type McpEventHandler,
  type McpHandlerOptions,
  type ToolDefinition,
} from "../../src/index.ts";
import { hostileDefinitions } from "./hostile-definitions.ts";
import { startHost, type HostName, type RunningHost } from "./hosts.ts";
import { POST_HEADERS, single, toAnswer, type Answer, type RpcMessage } from "./rpc.ts";

// Wire constants spelled out (not imported from src/) so that a drift in the library shows up.
export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25";
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
/** Every client capability an input request may need. */
export const ALL_CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
/** Every answer here is short: a reply that never settles fails the test instead of hanging it. */
export const ANSWER_TIMEOUT_MS = 5000;

let nextId = 1;

/** A fresh JSON-RPC id. */
export function freshId(): number {
  return nextId++;
}

/** A modern request: `params` plus the `_meta` envelope. */
export function modern(
  method: string,
  params: Record<string, unknown> = {},
  id: number | string = freshId(),
): RpcMessage {
  const meta = { [META_PROTOCOL_VERSION]: MODERN, [META_CLIENT_CAPABILITIES]: ALL_CAPABILITIES };
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } };
}

/** A legacy request (no `_meta` claim). */
export function legacy(method: string, params?: Record<string, unknown>, id: number | string = freshId()): RpcMessage {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

/** The base64 sentinel of SEP-2243 for a UTF-8 value. */
export function sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** The standard headers a conforming modern client sends with `message`. */
export function modernHeaders(message: RpcMessage): Record<string, string> {
  const headers: Record<string, string> = { ...POST_HEADERS, "mcp-protocol-version": MODERN };
  if (typeof message.method === "string") headers["mcp-method"] = message.method;
  const params = message.params ?? {};
  const name =
    message.method === "resources/read"
      ? params.uri
      : message.method === "tools/call" || message.method === "prompts/get"
        ? params.name
        : undefined;
  if (typeof name === "string") {
    headers["mcp-name"] =
      /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/.test(name) && !name.startsWith("=?") ? name : sentinel(name);
  }
  return headers;
}

/** POSTs raw text with the given headers, bounded in time. */
export async function postText(url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const signal = AbortSignal.timeout(ANSWER_TIMEOUT_MS);
  return toAnswer(await fetch(url, { method: "POST", headers, body, signal }));
}

/** POSTs a modern message with its standard headers, changed by `edits` (null removes a header). */
export function postModern(
  url: string,
  message: RpcMessage,
  edits: Record<string, string | null> = {},
): Promise<Answer> {
  return postModernText(url, message, JSON.stringify(message), edits);
}

/** POSTs `body` with the standard headers of `message` (the body may differ from the message). */
export function postModernText(
  url: string,
  message: RpcMessage,
  body: string,
  edits: Record<string, string | null> = {},
): Promise<Answer> {
  const headers = modernHeaders(message);
  for (const [name, value] of Object.entries(edits)) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  return postText(url, body, headers);
}

/** A legacy session opened by hand: initialize, then notifications/initialized. */
export interface Session {
  id: string;
  headers: Record<string, string>;
}

/** Opens a legacy session. */
export async function openSession(url: string, version = LEGACY): Promise<Session> {
  const init = legacy("initialize", {
    protocolVersion: version,
    capabilities: ALL_CAPABILITIES,
    clientInfo: { name: "hostile", version: "1" },
  });
  const answer = await postText(url, JSON.stringify(init), POST_HEADERS);
  expect(answer.status, answer.text).toBe(200);
  const id = answer.headers.get("mcp-session-id")!;
  expect(id).toBeTruthy();
  const headers: Record<string, string> = { ...POST_HEADERS, "mcp-session-id": id };
  if (version !== "2025-03-26") headers["mcp-protocol-version"] = version;
  const initialized = await postText(
    url,
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    headers,
  );
  expect(initialized.status).toBe(202);
  return { id, headers };
}

/** POSTs a legacy message on a session. */
export function postLegacy(
  url: string,
  session: Session | undefined,
  message: unknown,
  extra: Record<string, string> = {},
): Promise<Answer> {
  return postText(url, JSON.stringify(message), { ...POST_HEADERS, ...session?.headers, ...extra });
}

/** POSTs raw text as a legacy message on a session (or without one). */
export function postLegacyText(
  url: string,
  session: Session | undefined,
  body: string,
  extra: Record<string, string> = {},
): Promise<Answer> {
  return postText(url, body, { ...POST_HEADERS, ...session?.headers, ...extra });
}

/** The session answers a ping. */
export async function expectPing(url: string, session: Session): Promise<void> {
  const id = freshId();
  const answer = await postLegacy(url, session, legacy("ping", undefined, id));
  expect(answer.status, answer.text).toBe(200);
  expect(single(answer)).toEqual({ jsonrpc: "2.0", id, result: {} });
}

/** The server still serves both eras: a modern `tools/call` and a new legacy session's ping. */
export async function expectStillServes(url: string, server?: HostileServer): Promise<void> {
  const n = Math.floor(Math.random() * 1e9);
  const call = modern("tools/call", { name: "record", arguments: { n } });
  const answer = await postModern(url, call);
  expect(answer.status, answer.text).toBe(200);
  expect(single(answer).result?.content).toEqual([{ type: "text", text: `recorded ${n}` }]);
  if (server) expect(server.effects.at(-1)).toBe(`record:${n}`);
  await expectPing(url, await openSession(url));
}

/** The error of a JSON answer (asserting the answer is one). */
export function errorOf(answer: Answer): { code: number; message: string; data?: unknown } {
  expect(answer.headers.get("content-type"), answer.text).toContain("application/json");
  const body = single(answer);
  expect(body.jsonrpc).toBe("2.0");
  expect(body.error, answer.text.slice(0, 500)).toBeDefined();
  return body.error!;
}

/** Asserts status and JSON-RPC code, and that the message (and the whole body) stays short. */
export function expectRefused(
  answer: Answer,
  status: number,
  code: number,
  message?: RegExp,
): { code: number; message: string; data?: unknown } {
  expect(answer.status, answer.text.slice(0, 500)).toBe(status);
  const error = errorOf(answer);
  expect(error.code, answer.text.slice(0, 500)).toBe(code);
  if (message) expect(error.message).toMatch(message);
  return error;
}

export { hostileDefinitions };

/** A server for hostile tests, with what its handlers did. */
export interface HostileServer {
  url: string;
  handler: McpEventHandler;
  /** Side effects of every handler, in order. */
  effects: string[];
  close(): Promise<void>;
}

/** Starts a hostile server on `host`, with `extra` options and `moreTools` beside the usual ones. */
export async function startHostile(
  host: HostName,
  extra: Partial<McpHandlerOptions> = {},
  moreTools: (effects: string[]) => ToolDefinition[] = () => [],
): Promise<HostileServer> {
  const effects: string[] = [];
  const definitions = hostileDefinitions(effects);
  const handler = defineMcpHandler({
    name: "hostile",
    version: "1.0.0",
    logging: true,
    ...definitions,
    tools: [...(definitions.tools as ToolDefinition[]), ...moreTools(effects)],
    ...extra,
  });
  const running: RunningHost = await startHost(host, handler);
  return {
    url: running.url,
    handler,
    effects,
    close: async () => {
      await handler.close();
      await running.close();
    },
  };
}

/**
 * Opens a legacy GET stream without reading its (endless) body; the head must arrive in time.
 * `close` drops the connection.
 */
export async function openGetStream(
  url: string,
  session: Session,
  extra: Record<string, string> = {},
): Promise<{ response: Response; close: () => void }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ANSWER_TIMEOUT_MS);
  const response = await fetch(url, {
    method: "GET",
    headers: { "mcp-session-id": session.id, "mcp-protocol-version": LEGACY, accept: "text/event-stream", ...extra },
    signal: controller.signal,
  });
  clearTimeout(timer);
  return {
    response,
    close: () => {
      controller.abort();
      void response.body?.cancel().catch(() => {});
    },
  };
}

/** `depth` nested objects around `inner`, as JSON text (built without recursion). */
export function nestedJson(depth: number, inner = "1"): string {
  return '{"a":'.repeat(depth) + inner + "}".repeat(depth);
}
