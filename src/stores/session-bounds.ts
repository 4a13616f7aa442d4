/**
 * The bounds every session store takes (memory, Redis, Durable Object) and the handler's
 * `sessions` options name, with their defaults: checked by one function, so that a `NaN` TTL or a
 * cap given as a string is refused the same way wherever it is given.
 */
import { nonNegativeOption, positiveOption } from "../protocol/positive-option.ts";

/** The bounds of a session store, checked and with their defaults filled in. */
export interface SessionBounds {
  readonly ttlMs: number;
  readonly maxSessions: number;
  readonly maxPendingSessions: number;
  readonly handshakeGraceMs: number;
}

/** The defaults of {@link SessionBounds} (README, "Sessions"). */
export const SESSION_BOUND_DEFAULTS: SessionBounds = {
  ttlMs: 30 * 60_000,
  maxSessions: 10_000,
  maxPendingSessions: 1000,
  handshakeGraceMs: 2000,
};

/**
 * The bounds as given, each checked under `${prefix}${its name}` (e.g. `"mcp-h3: DurableSessionStore "`
 * or `"mcp-h3: defineMcpWorker: sessions."`), or its default. `maxPendingSessions` is at most
 * `maxSessions`; `handshakeGraceMs` may be 0 (no grace).
 */
export function sessionBounds(
  prefix: string,
  options: Partial<Record<keyof SessionBounds, unknown>> = {},
): SessionBounds {
  const defaults = SESSION_BOUND_DEFAULTS;
  const maxSessions = positiveOption(`${prefix}maxSessions`, options.maxSessions, { fallback: defaults.maxSessions });
  return {
    ttlMs: positiveOption(`${prefix}ttlMs`, options.ttlMs, { fallback: defaults.ttlMs }),
    maxSessions,
    maxPendingSessions: Math.min(
      positiveOption(`${prefix}maxPendingSessions`, options.maxPendingSessions, {
        fallback: defaults.maxPendingSessions,
      }),
      maxSessions,
    ),
    handshakeGraceMs: nonNegativeOption(`${prefix}handshakeGraceMs`, options.handshakeGraceMs, {
      fallback: defaults.handshakeGraceMs,
    }),
  };
}
