/**
 * What a client reports of the request and of its user in `params._meta`, as `event.context.mcp`
 * gives it (`trace`, `user`); unverified, like all of `_meta`.
 */

/** W3C trace context carried in `_meta` (modern). */
export interface TraceContext {
  traceparent?: string;
  tracestate?: string;
  baggage?: string;
}

/**
 * The end user as the client reports it in `params._meta` (`openai/locale`, `openai/userLocation`,
 * `openai/userAgent`, `openai/subject`, `openai/session`, `timezone_offset_minutes`). Unverified:
 * use it to shape answers, never to decide access.
 */
export interface McpUserContext {
  locale?: string;
  location?: {
    city?: string;
    region?: string;
    country?: string;
    timezone?: string;
    latitude?: number;
    longitude?: number;
  };
  userAgent?: string;
  /** An opaque, client-scoped id of the end user. */
  subject?: string;
  /** An opaque id of the conversation or session in the client. */
  session?: string;
  /** The user's offset from UTC in minutes. */
  timezoneOffsetMinutes?: number;
}
