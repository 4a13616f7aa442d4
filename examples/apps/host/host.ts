/**
 * A minimal MCP Apps host (browser code; scripts/build-app-views.mjs bundles it into host.html): what a chat
 * client does to show an MCP App, with a real MCP client (`@modelcontextprotocol/client` 2.x, legacy or
 * modern era as `?era=` says, default modern) talking to `/mcp` of this origin. The playground serves it at
 * /apps/host and the Chromium host test at /host. It calls `?tool=` (a tool with a view) with `?args=` and
 * shows its view through inspector/app-view.ts, the code the inspector page (mcp-h3/inspector) hosts views
 * with: the sandbox proxy (`sandbox` next to this page, on the machine's other loopback name), the AppBridge,
 * the view's own tool calls forwarded through the client to tools whose visibility names "app". Nothing that
 * decides where it connects or frames comes from the URL. Each step is written to `#log`, where the test reads it.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/app-bridge";
import { mountAppView } from "../../../inspector/app-view.ts";

const params = new URLSearchParams(location.search);
const era = params.get("era") === "legacy" ? "legacy" : "modern";
const toolName = params.get("tool") ?? "show_weather";
const mcpUrl = new URL("/mcp", location.href);
const HOST = { name: "mcp-h3-minimal-host", version: "1.0.0" };

/** The sandbox's origin: another origin than this page's, as the spec requires of a web host. */
function sandboxOrigin(): string {
  const swapped = { localhost: "127.0.0.1", "127.0.0.1": "localhost" }[location.hostname];
  if (!swapped) throw new Error("open this page on localhost or 127.0.0.1");
  return `${location.protocol}//${swapped}${location.port ? `:${location.port}` : ""}`;
}

function log(line: string): void {
  const item = document.createElement("li");
  item.textContent = line;
  document.getElementById("log")!.append(item);
}

async function main(): Promise<void> {
  const args = JSON.parse(params.get("args") ?? "{}") as Record<string, unknown>;
  const client = new Client(HOST, {
    // The host renders MCP Apps: servers may read this to answer with or without a view.
    capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } },
    versionNegotiation: era === "modern" ? { mode: { pin: "2026-07-28" } } : { mode: "legacy" },
  });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl));
  log(`connected (${era})`);
  const { tools } = await client.listTools();
  const tool = tools.find((candidate) => candidate.name === toolName);
  if (!tool) throw new Error(`no tool ${toolName}`);
  const sandbox = new URL("sandbox", location.href);
  await mountAppView({
    client,
    tool,
    tools: new Map(tools.map((entry) => [entry.name, entry])),
    args,
    container: document.body,
    sandboxUrl: `${sandboxOrigin()}${sandbox.pathname}`,
    host: HOST,
    log,
  });
}

main().catch((error: unknown) => {
  log(`failed: ${String(error)}`);
  console.error(error);
});
