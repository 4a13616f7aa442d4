/**
 * POST body checks: Content-Type (415), size (413, unread past the limit), JSON (400 -32700), nesting
 * depth (400 -32602), then the message's era and kind (classify.ts), decided here once.
 */
import { CONNECTION_CLOSED, INVALID_PARAMS, PARSE_ERROR } from "../protocol/errors.ts";
import { parseBoundedJson } from "../protocol/json-depth.ts";
import { errorReply, jsonReply, type Reply } from "../http/reply.ts";
import { failure } from "../protocol/jsonrpc.ts";
import type { Inbound } from "../http/inbound.ts";
import { classifyPost, type ClassifiedPost } from "./classify.ts";

/** True when a Content-Type header names `application/json` (parameters such as charset allowed). */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  if (contentType === "application/json") return true;
  const semicolon = contentType.indexOf(";");
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return type === "application/json";
}

export type BodyOutcome = { ok: true; message: unknown } | { ok: false; reply: Reply };

/** The limits a POST body is read within. */
export interface BodyLimits {
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
}

/**
 * A POST body read by `Inbound.readText` (undefined: larger than the limit), parsed within the
 * bounds and classified: its era and kind, or the answer that refuses it.
 */
export function readPost(
  text: string | undefined,
  limits: BodyLimits,
  versionHeader: string | null,
): { ok: true; post: ClassifiedPost } | { ok: false; reply: Reply } {
  const body = parseJsonBody(text, limits.maxBodyBytes, limits.maxJsonDepth);
  if (!body.ok) return body;
  const post = classifyPost(body.message, versionHeader);
  if (post.era !== "rejected") return { ok: true, post };
  return { ok: false, reply: errorReply(400, post.id, post.code, post.message, post.data) };
}

/** 415 unless the Content-Type is JSON. */
export function checkJsonContentType(inbound: Inbound): Reply | undefined {
  if (isJsonContentType(inbound.header("content-type"))) return undefined;
  return errorReply(415, null, CONNECTION_CLOSED, "Unsupported Media Type: Content-Type must be application/json");
}

/**
 * Parses a body read by `Inbound.readText` (undefined: larger than `maxBodyBytes`) and refuses one
 * nested deeper than `maxJsonDepth`, so that nothing downstream walks client data without a bound.
 * Nothing is changed on failure.
 */
export function parseJsonBody(text: string | undefined, maxBodyBytes: number, maxJsonDepth: number): BodyOutcome {
  if (text === undefined) {
    return {
      ok: false,
      // The rest of the body is not read; closing the connection stops a client that keeps sending.
      reply: jsonReply(
        413,
        failure(null, CONNECTION_CLOSED, `Payload Too Large: the body exceeds maxBodyBytes (${maxBodyBytes} bytes)`),
        { connection: "close" },
      ),
    };
  }
  let parsed: { value: unknown } | undefined;
  try {
    parsed = parseBoundedJson(text, maxJsonDepth);
  } catch (error) {
    return {
      ok: false,
      reply: errorReply(400, null, PARSE_ERROR, `Parse error: ${(error as Error).message}`),
    };
  }
  if (parsed === undefined) return { ok: false, reply: tooDeep(maxJsonDepth) };
  return { ok: true, message: parsed.value };
}

function tooDeep(maxJsonDepth: number): Reply {
  return errorReply(
    400,
    null,
    INVALID_PARAMS,
    `Invalid params: the message is nested deeper than maxJsonDepth (${maxJsonDepth} levels of objects and arrays)`,
    { maxJsonDepth },
  );
}
