/**
 * What a `requestState` belongs to: the request's method and its salient params (a tool's or a
 * prompt's `name` and `arguments`, a resource's `uri`), in one canonical spelling, so that a state
 * is worth nothing on another method or with other params, while the same params written in another
 * key order or `1.0` for `1` still match. A `v3.` state binds this text as the AES-GCM additional
 * data; a `v2.` state carried a SHA-256 digest of it (request-state-v2.ts).
 */
import { canonicalJson } from "../../protocol/canonical-json.ts";
import type { JsonObject } from "../../protocol/jsonrpc.ts";
import { describeMethod } from "../../protocol/methods.ts";

/** The binding of a request: `method`, a newline, the canonical JSON of its salient params. */
export function requestBinding(method: string, params: JsonObject): string {
  const salient =
    describeMethod(method)?.inputRounds === "uri"
      ? { uri: params.uri }
      : { name: params.name, arguments: params.arguments ?? {} };
  // The method is one of the input-capable ones (no newline in it), and JSON text has no raw newline:
  // the newline cannot be moved between the two parts.
  return `${method}\n${canonicalJson(salient)}`;
}
