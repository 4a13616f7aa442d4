/**
 * Public shapes of MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865, stable
 * 2026-01-26): a tool that links a `ui://` HTML view, served by `mcp-h3/apps`.
 */
import type { H3Event } from "h3";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { CacheHints } from "./cache-hints.ts";
import type { ResourceDefinition, SchemaInput, ToolDefinition, ToolOptions } from "./definitions.ts";

/**
 * Who may call an app's tool: `"model"` (the agent sees and calls it) and `"app"` (the view calls
 * it through the host, from this server only). The default is both; `["app"]` hides a tool from
 * the model (the host leaves it out of the agent's tool list).
 */
export type McpAppVisibility = "model" | "app";

/**
 * The origins a view may reach; the host builds the frame's Content Security Policy from them and
 * allows nothing else (with none given: no network at all, inline scripts and styles only). Each
 * entry is an origin as a CSP source expression writes it — `https://api.example.com`,
 * `wss://live.example.com:8443`, a wildcard subdomain `https://*.example.com`, any port
 * `https://cdn.example.com:*` — without a path; `defineMcpApp` refuses anything else (a `;`, `,`,
 * quote or space would add a directive, a policy, a keyword or a source to the host's CSP).
 */
export interface McpAppCsp {
  /** `fetch`, XHR and WebSocket targets (CSP `connect-src`). */
  connectDomains?: string[];
  /** Scripts, styles, images, fonts and media (CSP `script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains?: string[];
  /** Nested frames (CSP `frame-src`; none when omitted). */
  frameDomains?: string[];
  /** Base URIs of the document (CSP `base-uri`; the view's own origin when omitted). */
  baseUriDomains?: string[];
}

/**
 * Browser features a view asks for (the frame's Permission Policy `allow`); hosts MAY grant them,
 * so a view detects the feature before it uses it. `true` and `{}` both ask.
 */
export interface McpAppPermissions {
  camera?: true | Record<string, never>;
  microphone?: true | Record<string, never>;
  geolocation?: true | Record<string, never>;
  clipboardWrite?: true | Record<string, never>;
}

/** What a view's HTML comes from: a string, or a function of the event (e.g. reading a Nitro server asset). */
export type McpAppHtml =
  | string
  | ((event: H3Event) => string | Uint8Array | null | undefined | Promise<string | Uint8Array | null | undefined>);

/** The security and rendering metadata of a view, written as `_meta.ui` on its `resources/read` content. */
export interface McpAppViewMeta {
  /** The origins the view may reach (checked: origins only). */
  csp?: McpAppCsp;
  /** Browser features the view asks for. */
  permissions?: McpAppPermissions;
  /**
   * A dedicated sandbox origin for the view, in the host's own format (e.g. `{hash}.claudemcpcontent.com`
   * for Claude, an origin for ChatGPT): for views whose APIs allow-list their origin. Host-dependent.
   */
  domain?: string;
  /** `true` asks the host for a visible border and background, `false` for none; omitted, the host decides. */
  prefersBorder?: boolean;
}

/** The view of an app: its `ui://` resource. */
export interface McpAppViewOptions extends McpAppViewMeta {
  /** The view's URI: `ui://…` (default `ui://<tool name>/view.html`). */
  uri?: string;
  /** The resource's name in `resources/list` (default `<tool name>-view`). */
  name?: string;
  title?: string;
  description?: string;
  /**
   * One complete HTML document (a bundled single file): a string, or a function of the event
   * returning text or bytes (sync or async). Returning `null` or `undefined` answers "resource not found".
   */
  html: McpAppHtml;
  /** Modern cache hints of its `resources/read` (`ttlMs`, `cacheScope`): a static view can be cached for long. */
  cacheHints?: CacheHints;
}

/** Options of the ChatGPT (OpenAI Apps SDK) keys written next to the standard ones. */
export interface McpAppOpenAiOptions {
  /** `openai/toolInvocation/invoking`: the status line while the tool runs (e.g. "Fetching the forecast…"). */
  invoking?: string;
  /** `openai/toolInvocation/invoked`: the status line once it ran (e.g. "Forecast ready"). */
  invoked?: string;
}

/** Options of `defineMcpApp`: a tool (as `defineTool` takes it) and its view. */
export interface McpAppOptions<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
> extends ToolOptions<I, O> {
  /** The view the host renders for this tool's results. */
  view: McpAppViewOptions;
  /** Who may call the tool (default `["model", "app"]`). */
  visibility?: McpAppVisibility[];
  /**
   * The ChatGPT keys (`openai/outputTemplate`, `openai/widgetAccessible`, `openai/widgetCSP`, …),
   * written next to the standard `_meta.ui` by default; `false` leaves them out.
   */
  openai?: boolean | McpAppOpenAiOptions;
}

/**
 * An app, defined: a tool and its view, each a plain definition. Pass them as any other:
 * `defineMcpHandler({ tools: [app.tool], resources: [app.view] })`. `scopes` and `enabled` apply to both.
 */
export interface McpApp {
  /** The tool, whose `tools/list` entry links the view (`_meta.ui.resourceUri`). */
  readonly tool: ToolDefinition;
  /** The view: a `ui://` resource of MIME type `text/html;profile=mcp-app` with `_meta.ui` on its content. */
  readonly view: ResourceDefinition;
  /** The view's `ui://` URI (for app-only tools that name the same view). */
  readonly uri: string;
}

/** Options of `appToolMeta`: the `_meta` that links a tool to a view. */
export interface AppToolMetaOptions {
  /** The view's `ui://` URI; may be left out for an app-only tool that renders nothing itself. */
  resourceUri?: string;
  /** Who may call the tool (default `["model", "app"]`). */
  visibility?: McpAppVisibility[];
  /** The ChatGPT keys: written by default, `false` leaves them out. */
  openai?: boolean | McpAppOpenAiOptions;
}

/** Options of `appViewMeta`: the `_meta` of a view's content item (and of its listing). */
export interface AppViewMetaOptions extends McpAppViewMeta {
  /** The ChatGPT keys (`openai/widgetCSP`, `openai/widgetDomain`, …): written by default, `false` leaves them out. */
  openai?: boolean | { description?: string };
}

/** What a client declares under `capabilities.extensions["io.modelcontextprotocol/ui"]`. */
export interface McpUiClientCapability {
  /** The view formats it renders; `text/html;profile=mcp-app` for MCP Apps. */
  mimeTypes: string[];
  /** Anything else it declared, as given (untrusted). */
  [key: string]: unknown;
}

/** A `_meta` object as the builders return it. */
export type McpAppMeta = JsonObject;
