/**
 * Multi round-trip requests (MRTR) on the modern era. An input request (`elicit`, `sample`,
 * `listRoots`) is answered from this request's `inputResponses` when the client sent the answer;
 * otherwise it is recorded, the handler is left waiting, and the call ends with an
 * `input_required` result carrying every request made in the same turn.
 */
import { INTERNAL_ERROR, INVALID_PARAMS, McpError } from "../protocol/errors.ts";
import { isObject, type JsonObject } from "../protocol/jsonrpc.ts";
import type { InputBroker } from "../context-fields.ts";
import type { RequestContext } from "../request-context.ts";

/** Methods that may answer with `input_required`. */
export const INPUT_CAPABLE_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

/** The input requests of one round, and the moment the round needs the client. */
export class InputRound implements InputBroker {
  readonly requests: Record<string, { method: string; params?: JsonObject }> = {};
  /** Called once the handler asked for something the client has not answered yet. */
  onNeeded: (() => void) | undefined;
  #responses: JsonObject | undefined;
  #scheduled = false;

  constructor(responses: JsonObject | undefined) {
    this.#responses = responses;
  }

  request(context: RequestContext, key: string, method: string, params: JsonObject): Promise<unknown> {
    if (!INPUT_CAPABLE_METHODS.has(context.method)) {
      throw new McpError(
        INTERNAL_ERROR,
        `${method} cannot be requested while serving ${context.method}: only tools/call, prompts/get and resources/read may ask for input`,
      );
    }
    const answer = this.#responses?.[key];
    if (answer !== undefined) return Promise.resolve(answer);
    this.requests[key] = method === "roots/list" ? { method } : { method, params };
    if (!this.#scheduled) {
      this.#scheduled = true;
      // Wait a turn so that requests made together (Promise.all) go out in one result.
      setTimeout(() => this.onNeeded?.(), 0);
    }
    // Never settles: the call ends with input_required and the handler is abandoned (its signal aborts).
    return new Promise(() => {});
  }
}

/** Checks the shape of `inputResponses`: an object of objects. */
export function checkInputResponses(value: unknown): McpError | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return new McpError(INVALID_PARAMS, 'Invalid params: "inputResponses" must be an object');
  for (const [key, answer] of Object.entries(value)) {
    if (!isObject(answer)) {
      return new McpError(INVALID_PARAMS, `Invalid params: inputResponses["${key}"] must be an object`);
    }
  }
  return undefined;
}
