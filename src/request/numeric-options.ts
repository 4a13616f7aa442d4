/**
 * Every numeric option of `defineMcpHandler`, checked by the one shared check (protocol/positive-option.ts)
 * and given its default: a value that is not a number of the option's kind (`NaN` from
 * `Number(env.X)` of an unset variable, `"30 min"`, a negative, an infinity) is refused when the
 * handler is defined, naming the option, instead of being served as a bound that bounds nothing.
 * The Nitro module checks its config key's options with it too, when the server is built.
 */
import { nonNegativeOption, positiveOption } from "../protocol/positive-option.ts";
import { sessionBounds } from "../stores/session-bounds.ts";
import type { McpHandlerOptions, ResolvedOptions } from "../types/options.ts";

type Numeric<T> = { -readonly [K in keyof T as T[K] extends number ? K : never]: number };

/** The numeric options with their defaults: those of {@link ResolvedOptions}. */
export type HandlerNumbers = Numeric<ResolvedOptions> & {
  sessions: Numeric<Exclude<ResolvedOptions["sessions"], false>> | false;
};

/** Where the checks name an option from when none is said: `mcp-h3: defineMcpHandler: maxBodyBytes`. */
const HANDLER = "mcp-h3: defineMcpHandler: ";

/** A per-principal cap: as given (a positive whole number), else a tenth of the process's cap (at least 1). */
function perPrincipal(name: string, given: unknown, processCap: number): number {
  return positiveOption(name, given, { fallback: Math.max(1, Math.floor(processCap / 10)) });
}

/**
 * The numeric options of `input`, checked and completed; `prefix` comes before each option's path
 * in an error (`"mcp-h3: defineMcpWorker: "` names `sessions.ttlMs` as the Worker's).
 */
export function handlerNumbers(input: Partial<McpHandlerOptions>, prefix = HANDLER): HandlerNumbers {
  const given = (input.sessions || {}) as Record<string, unknown>;
  // A cap on a count: 0 refuses every one, `Infinity` lifts it (the caller's choice).
  const count = { infinite: true } as const;
  // One number for both eras; the legacy-only name of it is still honoured.
  const maxSubscriptions =
    input.maxSubscriptions === undefined
      ? nonNegativeOption(`${prefix}sessions.maxSubscriptions`, given.maxSubscriptions, { ...count, fallback: 1000 })
      : nonNegativeOption(`${prefix}maxSubscriptions`, input.maxSubscriptions, count);
  const maxListens = positiveOption(`${prefix}maxListens`, input.maxListens, { fallback: 1024 });
  requestStateTtlMs(input, prefix);
  return {
    sessions: input.sessions === false ? false : sessionNumbers(given, maxSubscriptions, `${prefix}sessions.`),
    maxBodyBytes: positiveOption(`${prefix}maxBodyBytes`, input.maxBodyBytes, { fallback: 4 * 1024 * 1024 }),
    maxJsonDepth: positiveOption(`${prefix}maxJsonDepth`, input.maxJsonDepth, { fallback: 64 }),
    maxUriLength: positiveOption(`${prefix}maxUriLength`, input.maxUriLength, { fallback: 16_384 }),
    maxSubscriptions,
    maxStreamBufferBytes: positiveOption(`${prefix}maxStreamBufferBytes`, input.maxStreamBufferBytes, {
      fallback: 1024 * 1024,
    }),
    // Under 10 s: Bun closes a connection that sends nothing for 10 s (its default idleTimeout),
    // which would cut an idle legacy GET stream or a long call. 0 sends none.
    keepAliveMs: nonNegativeOption(`${prefix}keepAliveMs`, input.keepAliveMs, { fallback: 8000 }),
    retryMs: nonNegativeOption(`${prefix}retryMs`, input.retryMs, { fallback: 1000 }),
    inputTimeoutMs: positiveOption(`${prefix}inputTimeoutMs`, input.inputTimeoutMs, { fallback: 10 * 60_000 }),
    // 0: a call may not ask the client for input at all.
    maxInputRounds: nonNegativeOption(`${prefix}maxInputRounds`, input.maxInputRounds, { fallback: 8 }),
    // 0: no heartbeat.
    progressHeartbeatMs: nonNegativeOption(`${prefix}progressHeartbeatMs`, input.progressHeartbeatMs, {
      fallback: 5000,
    }),
    maxListens,
    maxListensPerPrincipal: perPrincipal(`${prefix}maxListensPerPrincipal`, input.maxListensPerPrincipal, maxListens),
  };
}

function sessionNumbers(
  given: Record<string, unknown>,
  maxSubscriptions: number,
  prefix: string,
): Exclude<HandlerNumbers["sessions"], false> {
  const bounds = sessionBounds(prefix, given);
  return {
    ...bounds,
    maxSessionsPerPrincipal: perPrincipal(
      `${prefix}maxSessionsPerPrincipal`,
      given.maxSessionsPerPrincipal,
      bounds.maxSessions,
    ),
    maxSubscriptions,
    maxStreamsPerSession: positiveOption(`${prefix}maxStreamsPerSession`, given.maxStreamsPerSession, { fallback: 64 }),
    // 0: a finished stream's events are not kept for a resumption.
    replayWindowMs: nonNegativeOption(`${prefix}replayWindowMs`, given.replayWindowMs, { fallback: 5 * 60_000 }),
  };
}

/** `requestState.ttlMs`: how long a sealed `requestState` opens (default 10 minutes). */
export function requestStateTtlMs(input: Partial<McpHandlerOptions>, prefix = HANDLER): number {
  return positiveOption(`${prefix}requestState.ttlMs`, input.requestState?.ttlMs, { fallback: 10 * 60_000 });
}
