/** POST body checks: Content-Type (415), size (413, unread past the limit), JSON (400 -32700). */
import { CONNECTION_CLOSED, PARSE_ERROR } from "../protocol/errors.ts";
import { errorReply, type Reply } from "../reply.ts";
import type { Inbound } from "../inbound.ts";

/** True when a Content-Type header names `application/json` (parameters such as charset allowed). */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  if (contentType === "application/json") return true;
  const semicolon = contentType.indexOf(";");
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return type === "application/json";
}

export type BodyOutcome = { ok: true; message: unknown } | { ok: false; reply: Reply };

/** 415 unless the Content-Type is JSON. */
export function checkJsonContentType(inbound: Inbound): Reply | undefined {
  if (isJsonContentType(inbound.header("content-type"))) return undefined;
  return errorReply(415, null, CONNECTION_CLOSED, "Unsupported Media Type: Content-Type must be application/json");
}

/** Parses a body read by `Inbound.readText` (undefined: larger than `maxBodyBytes`). Nothing is changed on failure. */
export function parseJsonBody(text: string | undefined, maxBodyBytes: number): BodyOutcome {
  if (text === undefined) {
    return {
      ok: false,
      reply: errorReply(
        413,
        null,
        CONNECTION_CLOSED,
        `Payload Too Large: the body exceeds maxBodyBytes (${maxBodyBytes} bytes)`,
        undefined,
        // The rest of the body is not read; closing the connection stops a client that keeps sending.
        { connection: "close" },
      ),
    };
  }
  try {
    return { ok: true, message: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      reply: errorReply(400, null, PARSE_ERROR, `Parse error: ${(error as Error).message}`),
    };
  }
}
