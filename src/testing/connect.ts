/**
 * `createMcpTestClient`: the test client built, given its answer handlers, and connected over the
 * SDK's own Streamable HTTP transport, whose `fetch` calls the target in process (or the network,
 * for a URL).
 */
import {
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type SdkHttpError,
} from "@modelcontextprotocol/client";
import { positiveOption } from "../protocol/positive-option.ts";
import type { McpTestClientOptions, McpTestTarget } from "../types/testing.ts";
import { McpTestClient } from "./client.ts";
import { resolveTarget } from "./target.ts";
import { refusingFetch } from "./wire.ts";

const UI_EXTENSION = "io.modelcontextprotocol/ui";
const APP_MIME_TYPE = "text/html;profile=mcp-app";
const DEFAULT_TIMEOUT_MS = 10_000;

/** The declared capabilities: those the answer options imply, the apps extension, then the given ones. */
function capabilitiesOf(options: McpTestClientOptions): ClientCapabilities {
  const capabilities: Record<string, unknown> = {};
  if (options.elicitation) capabilities.elicitation = {};
  if (options.sampling) capabilities.sampling = {};
  if (options.roots) capabilities.roots = {};
  if (options.apps) capabilities.extensions = { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } };
  const given = (options.capabilities ?? {}) as Record<string, unknown>;
  const extensions = { ...(capabilities.extensions as object), ...(given.extensions as object) };
  return {
    ...capabilities,
    ...given,
    ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
  } as ClientCapabilities;
}

/**
 * Connects the official MCP client (`@modelcontextprotocol/client` 2.x) to `target`: a handler from
 * `defineMcpHandler` or `defineMcpFetchHandler`, an h3 app (v2, or v1 with h3 v1 installed), anything
 * with `fetch(Request)` (all in process, no port opened), or the URL of a running server.
 *
 * @example
 * import { createMcpTestClient, textOf } from "mcp-h3/testing";
 * await using client = await createMcpTestClient(handler, { era: "modern" });
 * const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
 * expect(textOf(result)).toBe("hi");
 */
export async function createMcpTestClient(
  target: McpTestTarget,
  options: McpTestClientOptions = {},
): Promise<McpTestClient> {
  const timeout = positiveOption("mcp-h3/testing: createMcpTestClient: timeout", options.timeout, {
    fallback: DEFAULT_TIMEOUT_MS,
  });
  const taskPollMs = positiveOption("mcp-h3/testing: createMcpTestClient: taskPollMs", options.taskPollMs, {
    fallback: 20,
  });
  const resolved = await resolveTarget(target, options.path);
  const client = new McpTestClient({ target: resolved, options, timeout, taskPollMs }, capabilitiesOf(options));
  // The same handlers answer a legacy server→client request and a modern input request.
  if (options.elicitation)
    client.setRequestHandler("elicitation/create", (r) => client.answerInput(r.method, r.params) as never);
  if (options.sampling)
    client.setRequestHandler("sampling/createMessage", (r) => client.answerInput(r.method, r.params) as never);
  if (options.roots) client.setRequestHandler("roots/list", (r) => client.answerInput(r.method, r.params) as never);
  let connected = false;
  let refused: SdkHttpError | undefined;
  const transport = new StreamableHTTPClientTransport(resolved.url, {
    // What the server answered while connecting: a failed connection says it rather than "negotiation failed".
    fetch: refusingFetch(resolved.fetch, (error) => void (connected || (refused = error))),
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
  });
  try {
    await client.connect(transport, { timeout });
    connected = true;
  } catch (error) {
    await client.close().catch(() => {});
    // A refused probe reads as "the server did not offer 2026-07-28"; the test author needs the 401 or the 404.
    throw refused ?? error;
  }
  return client;
}
