/**
 * An MCP App view hosted in a web page, as a chat client hosts it, on `@modelcontextprotocol/ext-apps/app-bridge`
 * and a connected MCP client (`@modelcontextprotocol/client` 2.x, either era). The inspector page shows the
 * view of a tool it called; the minimal host of examples/apps/host uses the same code.
 *
 * 1. reads the tool's `ui://` view (`_meta.ui.resourceUri`);
 * 2. frames the sandbox proxy (sandbox-proxy.ts) on ANOTHER origin, as the MCP Apps spec requires of a web
 *    host; the proxy runs the view under the CSP of its `_meta.ui.csp` (src/inspector/view-csp.ts);
 * 3. connects an `AppBridge` to the frame: the view's `ui/initialize` is answered, then the host sends the
 *    tool's input and result (the result given, or the tool called here);
 * 4. the bridge forwards the view's own `tools/call` to the server through the same client, only for a tool
 *    whose `_meta.ui.visibility` names "app".
 *
 * Each step goes to `log`, where a page shows it and the tests read it.
 */
import type { CallToolResult, Client, Tool } from "@modelcontextprotocol/client";
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
  type McpUiResourceCsp,
} from "@modelcontextprotocol/ext-apps/app-bridge";

export { getToolUiResourceUri };

export interface AppViewOptions {
  client: Client;
  /** The tool whose view is shown. */
  tool: Tool;
  /** The tools the view may call are looked up here (by name). */
  tools: ReadonlyMap<string, Tool>;
  args: Record<string, unknown>;
  /** The tool's result, when the page already called it; otherwise the tool is called once the view is ready. */
  result?: CallToolResult;
  /** Where the frame goes. */
  container: HTMLElement;
  /** The sandbox proxy's URL, on another origin (its server names this page as the one that may frame it). */
  sandboxUrl: string;
  host: { name: string; version: string };
  log(line: string): void;
}

export interface AppView {
  frame: HTMLIFrameElement;
  /** Closes the bridge and removes the frame. */
  close(): Promise<void>;
}

/**
 * `_meta.ui.visibility` names "app". A tool that says nothing (a plain tool, with no `_meta.ui`) is not the
 * view's to call: a view, or a page that plays one, must not reach every tool of the server.
 */
export function callableByView(tool: Tool): boolean {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return Array.isArray(visibility) && visibility.includes("app");
}

/** Reads the tool's view and shows it in a sandboxed frame in `container`, connected through an AppBridge. */
export async function mountAppView(options: AppViewOptions): Promise<AppView> {
  const { client, tool, log } = options;
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${tool.name} has no view`);
  const { contents } = await client.readResource({ uri });
  const content = contents[0];
  if (!content || !("text" in content) || content.mimeType !== RESOURCE_MIME_TYPE) {
    throw new Error(`${uri} is not an MCP App view`);
  }
  const ui = (content._meta?.ui ?? {}) as { csp?: McpUiResourceCsp };
  log(`read ${uri} (${content.mimeType}, csp ${JSON.stringify(ui.csp ?? null)})`);

  const frame = document.createElement("iframe");
  frame.id = "view-frame";
  frame.title = `${tool.name} view`;
  // The spec's sandbox of the proxy frame; its server makes it an opaque origin all the same, and the view's
  // own frame gets a narrower one (sandbox-proxy.ts).
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
  frame.src = options.sandboxUrl;
  options.container.append(frame);

  // No client given: the bridge's automatic forwarding would pass every tools/call of the view to the server, and
  // replacing its handler afterwards (to check visibility) warns in the console. The handlers are registered below.
  const bridge = new AppBridge(
    null,
    options.host,
    { serverTools: {}, serverResources: {}, logging: {} },
    {
      hostContext: {
        toolInfo: { tool },
        theme: prefersDark() ? "dark" : "light",
        platform: "web",
        displayMode: "inline",
      },
    },
  );
  const fail = (error: unknown): void => log(`failed: ${String(error)}`);
  bridge.onsandboxready = () => {
    log("sandbox ready");
    bridge.sendSandboxResourceReady({ html: content.text, csp: ui.csp, sandbox: "allow-scripts" }).catch(fail);
  };
  bridge.oninitialized = () => {
    const view = bridge.getAppVersion();
    log(`initialized ${view?.name} ${view?.version}`);
    void (async () => {
      await bridge.sendToolInput({ arguments: options.args });
      const result = options.result ?? (await client.callTool({ name: tool.name, arguments: options.args }));
      await bridge.sendToolResult(result as Parameters<AppBridge["sendToolResult"]>[0]);
      log("tool result sent");
    })().catch(fail);
  };
  // The spec wants the host to refuse a tool whose visibility leaves the view out (`["model"]`).
  bridge.oncalltool = async (call, extra) => {
    const target = options.tools.get(call.name);
    if (!target || !callableByView(target)) throw new Error(`the view may not call the tool "${call.name}"`);
    log(`view calls ${call.name}`);
    const result = await client.callTool(call, { signal: extra.mcpReq.signal });
    log(`view got ${call.name}'s result`);
    return result as Awaited<ReturnType<NonNullable<AppBridge["oncalltool"]>>>;
  };
  // The view may read the server's resources (the host declares serverResources), as the bridge would forward them.
  if (client.getServerCapabilities()?.resources) {
    const signal = (extra: { mcpReq: { signal: AbortSignal } }) => ({ signal: extra.mcpReq.signal });
    bridge.onlistresources = (params, extra) => client.listResources(params, signal(extra)) as never;
    bridge.onlistresourcetemplates = (params, extra) => client.listResourceTemplates(params, signal(extra)) as never;
    bridge.onreadresource = (params, extra) => client.readResource(params, signal(extra)) as never;
  }
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  return {
    frame,
    close: async () => {
      await bridge.close().catch(() => {});
      frame.remove();
    },
  };
}

/** The page follows the system's colour scheme; the view is told the same. */
function prefersDark(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches;
}
