/** Applies defaults to the handler options once. */
import type { CacheHints } from "../types/cache-hints.ts";
import { checkCacheHints } from "../define/cache-hints.ts";
import type { McpHandlerOptions, ResolvedOptions } from "../types/options.ts";
import { readEnvironment } from "./environment.ts";

function checkedHints(hints: McpHandlerOptions["cacheHints"]): Partial<Record<string, CacheHints>> {
  for (const [method, hint] of Object.entries(hints ?? {})) checkCacheHints(hint, `cacheHints["${method}"]`);
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

/** A per-principal cap: as given (a positive whole number), else a tenth of the process's cap (at least 1). */
function perPrincipal(given: number | undefined, processCap: number, name: string): number {
  if (given === undefined) return Math.max(1, Math.floor(processCap / 10));
  if (!Number.isInteger(given) || given < 1) throw new RangeError(`mcp-h3: ${name} must be a positive whole number`);
  return given;
}

/** A cap on a count: a whole number, 0 or more (0 refuses every one), or `Infinity` (no cap, the caller's choice). */
function countCap(given: number, name: string): number {
  if (!(Number.isInteger(given) || given === Infinity) || given < 0) {
    throw new RangeError(`mcp-h3: ${name} must be a whole number, 0 or more`);
  }
  return given;
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
  const maxBodyBytes = input.maxBodyBytes ?? 4 * 1024 * 1024;
  if (!(maxBodyBytes > 0)) throw new RangeError("mcp-h3: maxBodyBytes must be a positive number");
  const maxSessions = input.sessions ? (input.sessions.maxSessions ?? 10_000) : 10_000;
  const maxListens = input.maxListens ?? 1024;
  // One number for both eras; the legacy-only name of it is still honoured.
  const maxSubscriptions = countCap(
    input.maxSubscriptions ?? (input.sessions ? input.sessions.maxSubscriptions : undefined) ?? 1000,
    input.maxSubscriptions === undefined ? "sessions.maxSubscriptions" : "maxSubscriptions",
  );
  let allowedOrigins = normaliseList(input.allowedOrigins);
  let allowedHosts = normaliseList(input.allowedHosts);
  return {
    serverInfo,
    instructions: input.instructions,
    logging: input.logging === true || input.onLogLevelSet !== undefined,
    sessions:
      input.sessions === false
        ? false
        : {
            ttlMs: input.sessions?.ttlMs ?? 30 * 60_000,
            maxSessions,
            maxPendingSessions: input.sessions?.maxPendingSessions ?? 1000,
            handshakeGraceMs: input.sessions?.handshakeGraceMs ?? 2000,
            maxSessionsPerPrincipal: perPrincipal(
              input.sessions?.maxSessionsPerPrincipal,
              maxSessions,
              "sessions.maxSessionsPerPrincipal",
            ),
            maxSubscriptions,
            maxStreamsPerSession: input.sessions?.maxStreamsPerSession ?? 64,
            replayWindowMs: input.sessions?.replayWindowMs ?? 5 * 60_000,
          },
    // An empty list means "loopback only", the safe default for a local server. The environment is
    // read on first use, inside a request: a Worker may not read it while its module loads.
    get allowedOrigins() {
      return (allowedOrigins ??= fromEnvironment("MCP_ALLOWED_ORIGINS") ?? []);
    },
    get allowedHosts() {
      return (allowedHosts ??= fromEnvironment("MCP_ALLOWED_HOSTS") ?? []);
    },
    maxBodyBytes,
    maxJsonDepth: input.maxJsonDepth ?? 64,
    maxUriLength: input.maxUriLength ?? 16_384,
    maxSubscriptions,
    maxStreamBufferBytes: input.maxStreamBufferBytes ?? 1024 * 1024,
    // Under 10 s: Bun closes a connection that sends nothing for 10 s (its default idleTimeout),
    // which would cut an idle legacy GET stream or a long call.
    keepAliveMs: input.keepAliveMs ?? 8000,
    retryMs: input.retryMs ?? 1000,
    inputTimeoutMs: input.inputTimeoutMs ?? 10 * 60_000,
    maxInputRounds: input.maxInputRounds ?? 8,
    progressHeartbeatMs: input.progressHeartbeatMs ?? 5000,
    cacheHints: checkedHints(input.cacheHints),
    maxListens,
    maxListensPerPrincipal: perPrincipal(input.maxListensPerPrincipal, maxListens, "maxListensPerPrincipal"),
  };
}
