/**
 * A minimal MCP Apps host (browser code; scripts/build-app-views.mjs bundles it into host.html): what a chat
 * client does to show an MCP App, built on `@modelcontextprotocol/ext-apps/app-bridge` and a real MCP client
 * (`@modelcontextprotocol/client` 2.x, legacy or modern era as `?era=` says, default modern) talking to the
 * server at `?mcp=` (default `/mcp` of this origin). The playground serves it at /apps/host and the
 * Chromium host test at /host:
 *
 * 1. lists the tools and takes the `ui://` view of `?tool=` (`_meta.ui.resourceUri`), reads it;
 * 2. frames the sandbox proxy (`sandbox` next to this page) on another origin (`?sandbox=`, default: this
 *    origin with localhost and 127.0.0.1 swapped), its CSP built from the view's `_meta.ui.csp`;
 * 3. connects an `AppBridge` to the frame: the view's `ui/initialize` is answered, and once it is
 *    initialized the host sends the tool's input, calls the tool, and sends its result;
 * 4. the bridge forwards the view's own `tools/call` to the server through the same client, unless the
 *    tool's `_meta.ui.visibility` leaves the view out.
 *
 * Each step is written to `#log`, where the test reads it. The sandbox page answers with the CSP header
 * `viewCspHeader` (csp.ts) builds from its `?csp=`.
 */
import { Client, StreamableHTTPClientTransport, type Tool } from "@modelcontextprotocol/client";
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
  type McpUiResourceCsp,
} from "@modelcontextprotocol/ext-apps/app-bridge";

const params = new URLSearchParams(location.search);
const era = params.get("era") === "legacy" ? "legacy" : "modern";
const toolName = params.get("tool") ?? "show_weather";
const mcpUrl = new URL(params.get("mcp") ?? "/mcp", location.href);

/** The sandbox's origin: another origin than this page's, as the spec requires of a web host. */
function sandboxOrigin(): string {
  const given = params.get("sandbox");
  if (given) return given;
  const swapped = { localhost: "127.0.0.1", "127.0.0.1": "localhost" }[location.hostname];
  if (!swapped) throw new Error("open this page on localhost or 127.0.0.1, or give ?sandbox=<another origin>");
  return `${location.protocol}//${swapped}${location.port ? `:${location.port}` : ""}`;
}

function log(line: string): void {
  const item = document.createElement("li");
  item.textContent = line;
  document.getElementById("log")!.append(item);
}

async function main(): Promise<void> {
  const args = JSON.parse(params.get("args") ?? "{}") as Record<string, unknown>;
  const client = new Client(
    { name: "mcp-h3-minimal-host", version: "1.0.0" },
    {
      // The host renders MCP Apps: servers may read this to answer with or without a view.
      capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } },
      versionNegotiation: era === "modern" ? { mode: { pin: "2026-07-28" } } : { mode: "legacy" },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(mcpUrl));
  log(`connected (${era})`);

  const { tools } = await client.listTools();
  const tool: Tool | undefined = tools.find((candidate) => candidate.name === toolName);
  if (!tool) throw new Error(`no tool ${toolName}`);
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${toolName} has no view`);
  const { contents } = await client.readResource({ uri });
  const content = contents[0];
  if (!content || !("text" in content) || content.mimeType !== RESOURCE_MIME_TYPE) {
    throw new Error(`${uri} is not an MCP App view`);
  }
  const ui = (content._meta?.ui ?? {}) as { csp?: McpUiResourceCsp };
  log(`read ${uri} (${content.mimeType}, csp ${JSON.stringify(ui.csp ?? null)})`);

  const frame = document.createElement("iframe");
  frame.id = "view-frame";
  frame.title = `${toolName} view`;
  // The spec's sandbox of the proxy frame; the view's own frame gets a narrower one below.
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  const sandbox = new URL("sandbox", location.href);
  frame.src = `${sandboxOrigin()}${sandbox.pathname}?csp=${encodeURIComponent(JSON.stringify(ui.csp ?? null))}`;
  document.body.append(frame);

  const bridge = new AppBridge(
    client,
    { name: "mcp-h3-minimal-host", version: "1.0.0" },
    { serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: { toolInfo: { tool }, theme: "light", platform: "web", displayMode: "inline" } },
  );
  bridge.onsandboxready = () => {
    log("sandbox ready");
    void bridge.sendSandboxResourceReady({ html: content.text, csp: ui.csp, sandbox: "allow-scripts" });
  };
  bridge.oninitialized = () => {
    const view = bridge.getAppVersion();
    log(`initialized ${view?.name} ${view?.version}`);
    void (async () => {
      await bridge.sendToolInput({ arguments: args });
      const result = await client.callTool({ name: toolName, arguments: args });
      await bridge.sendToolResult(result as Parameters<AppBridge["sendToolResult"]>[0]);
      log("tool result sent");
    })().catch(fail);
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  // connect() forwards every tools/call of the view; the spec wants the host to refuse a tool whose
  // visibility leaves the view out (`["model"]`). Replaced now, before the view's first message arrives.
  bridge.oncalltool = async (call, extra) => {
    const target = tools.find((candidate) => candidate.name === call.name);
    if (!target || !callableByView(target)) throw new Error(`the view may not call the tool "${call.name}"`);
    log(`view calls ${call.name}`);
    return (await client.callTool(call, { signal: extra.mcpReq.signal })) as Awaited<
      ReturnType<NonNullable<AppBridge["oncalltool"]>>
    >;
  };
}

/** `_meta.ui.visibility` holds "app", or is not given (the default is `["model", "app"]`). */
function callableByView(tool: Tool): boolean {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return !Array.isArray(visibility) || visibility.includes("app");
}

function fail(error: unknown): void {
  log(`failed: ${String(error)}`);
  console.error(error);
}

main().catch(fail);
