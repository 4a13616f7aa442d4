/**
 * `mcp.user`: the end user as the client reports it in `params._meta`. Hosts such as ChatGPT send
 * these keys; they are unverified, so they shape answers and never decide access.
 */
import type { McpUserContext } from "../types/context.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function number(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

function location(value: unknown): McpUserContext["location"] {
  if (!isObject(value)) return undefined;
  const found: NonNullable<McpUserContext["location"]> = {};
  for (const key of ["city", "region", "country", "timezone"] as const) {
    const entry = text(value[key]);
    if (entry !== undefined) found[key] = entry;
  }
  const latitude = number(value.latitude);
  const longitude = number(value.longitude);
  if (latitude !== undefined) found.latitude = latitude;
  if (longitude !== undefined) found.longitude = longitude;
  return Object.keys(found).length > 0 ? found : undefined;
}

/** The normalised user context, or undefined when `_meta` carries none of its keys. */
export function readUserContext(meta: JsonObject | undefined): McpUserContext | undefined {
  if (!meta) return undefined;
  const user: McpUserContext = {
    locale: text(meta["openai/locale"]),
    location: location(meta["openai/userLocation"]),
    userAgent: text(meta["openai/userAgent"]),
    subject: text(meta["openai/subject"]),
    session: text(meta["openai/session"]),
    timezoneOffsetMinutes: number(meta.timezone_offset_minutes),
  };
  for (const key of Object.keys(user) as (keyof McpUserContext)[]) if (user[key] === undefined) delete user[key];
  return Object.keys(user).length > 0 ? user : undefined;
}
