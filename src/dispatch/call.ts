/** What every method handler of the dispatch table receives. */
import type { H3Event } from "h3";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { RequestContext } from "../context/request-context.ts";
import type { Catalog } from "../define/catalog.ts";

export interface DispatchCall {
  event: H3Event;
  params: JsonObject;
  catalog: Catalog;
  context: RequestContext;
}

/** A method of the table: resolves with the JSON-RPC result or throws an `McpError`. */
export type MethodHandler = (call: DispatchCall) => Promise<JsonObject> | JsonObject;
