/** JSON-RPC 2.0 message shapes and the checks that tell them apart. Data only, no I/O. */
import { describeMethod } from "./methods.ts";

export type JsonRpcId = string | number;
export type JsonObject = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: JsonObject;
}

interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

interface JsonRpcSuccess {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: JsonObject;
}

interface JsonRpcFailure {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** True for a plain (non-array, non-null) object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function hasValidParams(message: JsonObject): boolean {
  return message.params === undefined || isObject(message.params);
}

/** A request: has a method and an id. */
export function isRequest(message: unknown): message is JsonRpcRequest {
  return (
    isObject(message) &&
    message.jsonrpc === "2.0" &&
    typeof message.method === "string" &&
    isId(message.id) &&
    hasValidParams(message)
  );
}

/** A notification: has a method and no id. */
export function isNotification(message: unknown): message is JsonRpcNotification {
  return (
    isObject(message) &&
    message.jsonrpc === "2.0" &&
    typeof message.method === "string" &&
    !("id" in message) &&
    hasValidParams(message)
  );
}

/** A response: an id with a result or an error, and no method. */
export function isResponse(message: unknown): message is JsonRpcResponse {
  if (!isObject(message) || message.jsonrpc !== "2.0" || "method" in message) return false;
  if ("result" in message) return isId(message.id) && isObject(message.result);
  if ("error" in message) {
    const error = message.error;
    return (
      (isId(message.id) || message.id === null) &&
      isObject(error) &&
      typeof error.code === "number" &&
      typeof error.message === "string"
    );
  }
  return false;
}

/** A JSON-RPC message with its kind (as a 2025-03-26 batch's elements are carried). */
export type KindedMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse };

/** The message with its kind, tested once; undefined for what is no JSON-RPC message. */
export function kindOf(message: unknown): KindedMessage | undefined {
  if (isRequest(message)) return { kind: "request", message };
  if (isNotification(message)) return { kind: "notification", message };
  if (isResponse(message)) return { kind: "response", message };
  return undefined;
}

/** The JSON-RPC id of a message when it has a usable one, else `null` (for error replies). */
export function idOf(message: unknown): JsonRpcId | null {
  return isObject(message) && isId(message.id) ? message.id : null;
}

/** Builds a success response. */
export function success(id: JsonRpcId, result: JsonObject): JsonRpcSuccess {
  return { jsonrpc: "2.0", id, result };
}

/** Builds an error response. `data` is left out when undefined. */
export function failure(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: "2.0", id, error };
}

/** Builds a notification; `params` is left out when undefined. */
export function notification(method: string, params?: JsonObject): JsonRpcNotification {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

/**
 * What a request names: the param its method's descriptor says (`nameParam`: the tool or prompt's
 * `name`, the resource's `uri`, the task's `taskId`), when it is a string. The modern era's `Mcp-Name`
 * header mirrors it.
 */
export function requestName(method: string, params: JsonObject): string | undefined {
  const param = describeMethod(method)?.nameParam;
  const name = param === undefined ? undefined : params[param];
  return typeof name === "string" ? name : undefined;
}
