/**
 * The inspector's options, checked once when it is defined: a mistake in the sandbox's origins is reported
 * then, naming the option, rather than as a page that throws on every request or views that never show.
 */
import type { McpInspectorAccess, McpInspectorOptions } from "../types/inspector.ts";
import { loopbackTwinOrigin } from "./sandbox-page.ts";

/** Where views are framed from when the page is deployed (`appSandboxOrigin` with `pageOrigin`). */
export interface DeployedSandbox {
  /** `appSandboxOrigin`: the only host that serves the sandbox proxy (and serves nothing else). */
  origin: string;
  host: string;
  /** `pageOrigin`: the only page that may frame the sandbox, and the only host whose page shows views. */
  pageOrigin: string;
  pageHost: string;
}

export interface ResolvedInspectorOptions {
  enabled: McpInspectorAccess;
  endpoint: string;
  auth: boolean;
  embeddable: boolean;
  /** Undefined: the loopback default (each loopback name frames the other). */
  deployed: DeployedSandbox | undefined;
}

/** `value` as an http(s) origin, or a TypeError naming `option`. A path, query, fragment or user name is refused. */
function originOption(option: string, value: unknown): URL {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  const bare = url && (url.protocol === "http:" || url.protocol === "https:") && url.pathname === "/";
  if (!url || !bare || url.search || url.hash || url.username || url.password) {
    throw new TypeError(
      `mcp-h3/inspector: ${option} must be an http(s) origin such as "https://sandbox.example.com" ` +
        `(scheme, host and port only), not ${JSON.stringify(value)}`,
    );
  }
  return url;
}

function deployedSandbox(options: McpInspectorOptions): DeployedSandbox | undefined {
  if (options.appSandboxOrigin === undefined) {
    if (options.pageOrigin !== undefined) {
      throw new TypeError("mcp-h3/inspector: pageOrigin goes with appSandboxOrigin (it names who may frame it)");
    }
    return undefined;
  }
  const sandbox = originOption("appSandboxOrigin", options.appSandboxOrigin);
  if (options.pageOrigin === undefined) {
    throw new TypeError(
      "mcp-h3/inspector: appSandboxOrigin needs pageOrigin, the origin users open the inspector at: " +
        "only that page may frame the sandbox",
    );
  }
  const page = originOption("pageOrigin", options.pageOrigin);
  if (page.host === sandbox.host) {
    throw new TypeError(
      `mcp-h3/inspector: appSandboxOrigin (${sandbox.origin}) must be another host than the page's ` +
        `(${page.origin}): a view must not run in the page's origin`,
    );
  }
  return { origin: sandbox.origin, host: sandbox.host, pageOrigin: page.origin, pageHost: page.host };
}

/** Checks `options` and fills in the defaults. */
export function resolveInspectorOptions(options: McpInspectorOptions): ResolvedInspectorOptions {
  return {
    enabled: options.enabled ?? "loopback",
    endpoint: options.endpoint ?? "/mcp",
    auth: options.auth === true,
    embeddable: options.embeddable === true,
    deployed: deployedSandbox(options),
  };
}

/** The origin the page at `url` frames views from, or undefined when it shows none. */
export function sandboxOriginFor(options: ResolvedInspectorOptions, url: URL): string | undefined {
  if (options.deployed) return url.host === options.deployed.pageHost ? options.deployed.origin : undefined;
  return loopbackTwinOrigin(url);
}

/** The host page that may frame a sandbox requested at `url`, or undefined when no sandbox is served there. */
export function sandboxHostFor(options: ResolvedInspectorOptions, url: URL): string | undefined {
  if (options.deployed) return url.host === options.deployed.host ? options.deployed.pageOrigin : undefined;
  return loopbackTwinOrigin(url);
}
