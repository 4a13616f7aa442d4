/** Applies defaults to the handler options once. */
import type { CacheHints } from "../types/cache-hints.ts";
import { checkCacheHints } from "../define/cache-hints.ts";
import type { McpHandlerOptions, ResolvedOptions } from "../types/options.ts";
import { readEnvironment } from "./environment.ts";
import { handlerNumbers } from "../request/numeric-options.ts";

function checkedHints(hints: McpHandlerOptions["cacheHints"]): Partial<Record<string, CacheHints>> {
  for (const [method, hint] of Object.entries(hints ?? {}))
    checkCacheHints(hint, `defineMcpHandler: cacheHints["${method}"]`);
  return { ...hints };
}

/**
 * An allow-list as the Origin/Host gate compares it: entries trimmed, lower-cased, without trailing
 * slashes (`"https://App.example.com/"` is the origin `https://app.example.com`), empty ones dropped.
 * The same for the options and the environment variables.
 */
function normaliseList(list: readonly string[] | "*" | undefined): readonly string[] | "*" | undefined {
  if (list === undefined || list === "*") return list;
  const entries: string[] = [];
  for (const entry of list) {
    let end = entry.length;
    while (end > 0 && (entry[end - 1] === "/" || entry[end - 1]!.trim() === "")) end--;
    const value = entry.slice(0, end).trim().toLowerCase();
    if (value !== "") entries.push(value);
  }
  return entries;
}

/** `MCP_ALLOWED_ORIGINS` / `MCP_ALLOWED_HOSTS`: `*`, or comma-separated entries. */
function fromEnvironment(name: string): readonly string[] | "*" | undefined {
  const value = readEnvironment(name);
  if (value === undefined || value.trim() === "") return undefined;
  return value.trim() === "*" ? "*" : normaliseList(value.split(","));
}

export function resolveOptions(input: McpHandlerOptions): ResolvedOptions {
  if (!input || typeof input.name !== "string" || typeof input.version !== "string") {
    throw new TypeError("mcp-h3: defineMcpHandler needs a name and a version");
  }
  // Frozen: every modern result carries it, and it must not change while the handler serves.
  const serverInfo = Object.freeze(
    input.title === undefined
      ? { name: input.name, version: input.version }
      : { name: input.name, version: input.version, title: input.title },
  );
  const numbers = handlerNumbers(input);
  let allowedOrigins = normaliseList(input.allowedOrigins);
  let allowedHosts = normaliseList(input.allowedHosts);
  return {
    serverInfo,
    instructions: input.instructions,
    logging: input.logging === true || input.onLogLevelSet !== undefined,
    sessions: numbers.sessions,
    // An empty list means "loopback only", the safe default for a local server. The environment is
    // read on first use, inside a request: a Worker may not read it while its module loads.
    get allowedOrigins() {
      return (allowedOrigins ??= fromEnvironment("MCP_ALLOWED_ORIGINS") ?? []);
    },
    get allowedHosts() {
      return (allowedHosts ??= fromEnvironment("MCP_ALLOWED_HOSTS") ?? []);
    },
    maxBodyBytes: numbers.maxBodyBytes,
    maxJsonDepth: numbers.maxJsonDepth,
    maxUriLength: numbers.maxUriLength,
    maxSubscriptions: numbers.maxSubscriptions,
    maxStreamBufferBytes: numbers.maxStreamBufferBytes,
    keepAliveMs: numbers.keepAliveMs,
    retryMs: numbers.retryMs,
    inputTimeoutMs: numbers.inputTimeoutMs,
    maxInputRounds: numbers.maxInputRounds,
    progressHeartbeatMs: numbers.progressHeartbeatMs,
    cacheHints: checkedHints(input.cacheHints),
    maxListens: numbers.maxListens,
    maxListensPerPrincipal: numbers.maxListensPerPrincipal,
  };
}
