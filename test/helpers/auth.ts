/**
 * Static bearer tokens for the auth tests: alice and bob (read, write), reader (read), and a few
 * broken ones; raw requests of both eras carrying one.
 */
import { POST_HEADERS, toAnswer, type Answer } from "./rpc.ts";

export { METADATA_URL, TOKENS, staticAuth } from "./auth-tokens.ts";

const MODERN = "2026-07-28";

/** `Authorization: Bearer <token>` as a header record. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** A modern request with the token and the standard headers a client sends. */
export function modernPost(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
): Promise<Answer> {
  const name = method === "resources/read" ? params.uri : params.name;
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    ...bearer(token),
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
  };
  if (typeof name === "string") headers["mcp-name"] = name;
  const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } });
  return fetch(url, { method: "POST", headers, body }).then(toAnswer);
}

/** A legacy request with the token, on a session opened for it by hand. */
export async function legacyPost(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
): Promise<Answer> {
  const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  const headers = { ...POST_HEADERS, ...bearer(token) };
  const opened = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: init }),
  });
  const sessionId = opened.headers.get("mcp-session-id")!;
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
  const sessionHeaders = { ...headers, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  return fetch(url, { method: "POST", headers: sessionHeaders, body }).then(toAnswer);
}
