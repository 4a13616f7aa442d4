/**
 * The real clients the MCP Apps tests drive, each declaring (or not) the UI extension in its
 * capabilities as a host that renders apps does: `@modelcontextprotocol/sdk` 1.x and
 * `@modelcontextprotocol/client` 2.x on a legacy session (declared at `initialize`), and the 2.x
 * client pinned to 2026-07-28 (declared in every request's `_meta`). The 2.x client is the one
 * mcp-h3/testing connects (`createMcpTestClient` with the server's URL and `apps`).
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createMcpTestClient } from "../../src/_entries/testing.ts";
import { bearerInit, CALL_TIMEOUT_MS } from "./clients.ts";

export type AppClientName = "sdk-1.x" | "client-2.x-legacy" | "client-2.x-modern";
export const APP_CLIENTS: AppClientName[] = ["sdk-1.x", "client-2.x-legacy", "client-2.x-modern"];

/** What a host that renders MCP Apps declares. */
export const UI_CAPABILITIES = {
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
};

type Meta = Record<string, unknown>;

export interface AppClient {
  readonly era: "legacy" | "modern";
  listTools(): Promise<{ tools: { name: string; _meta?: Meta }[] }>;
  listResources(): Promise<{ resources: { uri: string; name: string; mimeType?: string; _meta?: Meta }[] }>;
  readResource(uri: string): Promise<{
    contents: { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: Meta }[];
  }>;
  callTool(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ content?: { type: string; text?: string }[]; structuredContent?: unknown; isError?: boolean }>;
  close(): Promise<void>;
}

/** Connects `name` to `url`; `ui` declares the UI extension, `token` goes in `Authorization`. */
export async function connectAppClient(
  name: AppClientName,
  url: string,
  { ui = false, token }: { ui?: boolean; token?: string } = {},
): Promise<AppClient> {
  const capabilities = ui ? UI_CAPABILITIES : {};
  const info = { name: `${name}-apps-test`, version: "1.0.0" };
  if (name === "sdk-1.x") {
    const client = new ClientV1(info, { capabilities });
    await client.connect(new TransportV1(new URL(url), bearerInit(token)));
    return {
      era: "legacy",
      listTools: () => client.listTools(),
      listResources: () => client.listResources(),
      readResource: (uri) => client.readResource({ uri }),
      callTool: async (tool, args = {}) =>
        (await client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: CALL_TIMEOUT_MS,
        })) as Awaited<ReturnType<AppClient["callTool"]>>,
      close: () => client.close(),
    };
  }
  // The 2.x client in either era is mcp-h3/testing's, by the server's URL (apps: the UI extension declared).
  const era = name === "client-2.x-modern" ? "modern" : "legacy";
  const client = await createMcpTestClient(url, {
    era,
    apps: ui,
    clientInfo: info,
    timeout: CALL_TIMEOUT_MS,
    ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
  });
  return {
    era,
    listTools: () => client.listTools(),
    listResources: () => client.listResources(),
    readResource: (uri) => client.readResource({ uri }),
    callTool: async (tool, args = {}) =>
      (await client.callTool({ name: tool, arguments: args })) as Awaited<ReturnType<AppClient["callTool"]>>,
    close: () => client.close(),
  };
}
