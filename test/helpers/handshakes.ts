/**
 * Legacy handshakes over raw HTTP and with the 1.x SDK client, for the tests of who may be ended
 * to make room (the handshake grace, on the memory store and on Redis).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";
import { post, type Answer } from "./rpc.ts";

export const VERSION = "2025-11-25";
let nextId = 1;

export function initializeMessage(): object {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "grace-test", version: "1" } },
  };
}

export function headersOf(sessionId: string): Record<string, string> {
  return { "mcp-session-id": sessionId, "mcp-protocol-version": VERSION };
}

/** A session that sent `initialize` only (pending). */
export async function openPending(url: string): Promise<string> {
  const answer = await post(url, initializeMessage());
  expect(answer.status, answer.text).toBe(200);
  return answer.headers.get("mcp-session-id")!;
}

/** A session that also sent `notifications/initialized`. */
export async function openInitialized(url: string): Promise<string> {
  const id = await openPending(url);
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headersOf(id));
  expect(initialized.status).toBe(202);
  return id;
}

export function ping(url: string, sessionId: string): Promise<Answer> {
  return post(url, { jsonrpc: "2.0", id: nextId++, method: "ping" }, headersOf(sessionId));
}

export interface ClientOutcome {
  /** HTTP statuses the client's transport received, in order. */
  statuses: number[];
  /** The echo tool's text, or the error the client ended with. */
  result: string;
}

/** The 1.x SDK client: connect (initialize, initialized, GET stream), call `echo`, close. */
export async function sdkClientRun(url: string, text: string): Promise<ClientOutcome> {
  const statuses: number[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  });
  const client = new Client({ name: "grace-client", version: "1" });
  try {
    await client.connect(transport);
    const called = await client.callTool({ name: "echo", arguments: { text } }, undefined, { timeout: 10_000 });
    const content = called.content as { type: string; text: string }[];
    return { statuses, result: content[0]!.text };
  } catch (error) {
    return { statuses, result: `error ${(error as Error).message}` };
  } finally {
    await client.close().catch(() => {});
  }
}
