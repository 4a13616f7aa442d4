/** Small checks of request params; each failure is a `-32602` naming the field. */
import { INVALID_PARAMS, McpError } from "../protocol/errors.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";

/** A required string field. */
export function requireString(params: JsonObject, field: string): string {
  const value = params[field];
  if (typeof value !== "string") {
    throw new McpError(INVALID_PARAMS, `Invalid params: "${field}" must be a string`);
  }
  return value;
}

/** An optional object field, `{}` when absent. */
export function optionalObject(params: JsonObject, field: string): JsonObject {
  const value = params[field];
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new McpError(INVALID_PARAMS, `Invalid params: "${field}" must be an object`);
  return value;
}

/** Lists are not paginated: any cursor is one this server never issued. */
export function rejectCursor(params: JsonObject): void {
  if (params.cursor !== undefined) {
    throw new McpError(INVALID_PARAMS, "Invalid params: unknown cursor (this server does not paginate)");
  }
}
