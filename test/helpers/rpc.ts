/** Raw JSON-RPC over HTTP: message and answer types, requests by `fetch` or `node:http`, the error-answer check. */
import { request as httpRequest } from "node:http";
import { expect } from "vitest";
import { parseSse, type SseEvent } from "./sse.ts";

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: RpcError;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when the reply is JSON. */
  json: RpcMessage | RpcMessage[] | undefined;
  /** The events when the reply is an SSE stream (read to its end). */
  events: SseEvent[];
}

/** Reads a response to its end. */
export async function toAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const json = type.includes("application/json") && text !== "" ? (JSON.parse(text) as RpcMessage) : undefined;
  const events = type.includes("text/event-stream") ? parseSse(text) : [];
  return { status: response.status, headers: response.headers, text, json, events };
}

/** What a Streamable HTTP client sends with every POST. */
export const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** POSTs raw text as a JSON body (or with the given headers overriding Content-Type / Accept). */
export async function postRaw(url: string, text: string, headers: Record<string, string> = {}): Promise<Answer> {
  return toAnswer(await fetch(url, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body: text }));
}

/** POSTs one JSON value. */
export function post(url: string, message: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return postRaw(url, JSON.stringify(message), headers);
}

/** Sends a legacy `initialize` by hand (no notifications/initialized) and returns the new session id. */
export async function initializeByHand(url: string, protocolVersion = "2025-11-25"): Promise<string> {
  const answer = await post(url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  expect(answer.status).toBe(200);
  const sessionId = answer.headers.get("mcp-session-id");
  expect(sessionId).toBeTruthy();
  return sessionId!;
}

/** A request without a body (GET, DELETE). */
export async function send(url: string, method: string, headers: Record<string, string> = {}): Promise<Answer> {
  return toAnswer(await fetch(url, { method, headers }));
}

/** POSTs a modern (2026-07-28) `tools/call` with the standard headers a client sends; `params` go as given. */
export function postToolCall(
  url: string,
  id: number,
  params: { name: string; [key: string]: unknown },
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      ...POST_HEADERS,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": params.name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
  });
}

/**
 * A request through `node:http`, for what `fetch` cannot send: a `Host` header (a forbidden header
 * name), header names in a chosen letter case, values with surrounding whitespace.
 */
export function nodeRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const plain: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (typeof value === "string") plain[name] = value;
        }
        const status = response.statusCode ?? 0;
        const fake = new Response(status === 202 || status === 204 ? null : Buffer.concat(chunks), {
          status,
          headers: plain,
        });
        toAnswer(fake).then(resolve, reject);
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** The single JSON-RPC message of a JSON answer. */
export function single(answer: Answer): RpcMessage {
  expect(answer.json, `expected a JSON body, got ${answer.status} ${answer.text}`).toBeDefined();
  expect(Array.isArray(answer.json), `expected one JSON-RPC message, got ${answer.text}`).toBe(false);
  return answer.json as RpcMessage;
}

/** Asserts a JSON-RPC error answer and returns its error object. */
export function expectError(answer: Answer, status: number, code: number, message?: RegExp | string): RpcError {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get("content-type")).toContain("application/json");
  const body = single(answer);
  expect(body.jsonrpc).toBe("2.0");
  expect(body.result).toBeUndefined();
  expect(body.error, answer.text).toBeDefined();
  const error = body.error!;
  expect(error.code, answer.text).toBe(code);
  expect(typeof error.message).toBe("string");
  if (message !== undefined) expect(error.message).toMatch(message);
  return error;
}
