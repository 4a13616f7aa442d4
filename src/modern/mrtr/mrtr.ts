/**
 * Multi round-trip requests (MRTR) on the modern era. An input request (`elicit`, `sample`,
 * `listRoots`) is answered from this request's `inputResponses` when the client sent the answer;
 * otherwise it is recorded, the handler is left waiting, and the call ends with an
 * `input_required` result carrying every request made together with it (see QUIET_TICKS).
 */
import { echoValue } from "../../protocol/echo.ts";
import { INTERNAL_ERROR, INVALID_PARAMS, McpError } from "../../protocol/errors.ts";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.ts";
import { describeMethod, inputRoundMethods } from "../../protocol/methods.ts";
import type { InputBroker, RequestContext } from "../../context/request-context.ts";

/**
 * What an input request of an abandoned handler rejects with once its call answered
 * `input_required`: the handler's `finally` blocks and `signal` listeners run. Whatever the handler
 * does after it (a result, an error result) is ignored: the call was already answered.
 */
export class InputRequiredSignal extends Error {
  constructor() {
    super("The call ended with input_required; the client will call again with the answers");
    this.name = "InputRequiredSignal";
  }
}

/**
 * Microtask ticks without a new input request after which a round's requests are sent. Requests made
 * together (one `Promise.all`, or a few awaits of settled values apart) go out in one result; one made
 * after waiting for I/O or a timer goes out in the next round. Ticks rather than a timer: a timer waits
 * at least a millisecond on Node for nothing, since a handler waiting on its requests makes no progress.
 */
const QUIET_TICKS = 16;

/** The input requests of one round, and the moment the round needs the client. */
export class InputRound implements InputBroker {
  readonly requests: Record<string, { method: string; params?: JsonObject }> = {};
  #responses: JsonObject | undefined;
  /** Ticks left before the requests gathered so far are sent; 0 while nothing is being gathered. */
  #quietTicks = 0;
  #needed = false;
  #onNeeded: (() => void) | undefined;
  /** Rejecters of the requests still waiting; the round's end rejects them all. */
  #waiting: ((reason: unknown) => void)[] | undefined;
  #ended: InputRequiredSignal | undefined;

  constructor(responses: JsonObject | undefined) {
    this.#responses = responses;
  }

  /** Calls `listener` once the handler asked for something the client has not answered yet, and its turn is over. */
  whenNeeded(listener: () => void): void {
    if (this.#needed) listener();
    else this.#onNeeded = listener;
  }

  request(context: RequestContext, key: string, method: string, params: JsonObject): Promise<unknown> {
    if (describeMethod(context.method)?.inputRounds === undefined) {
      throw new McpError(
        INTERNAL_ERROR,
        `${method} cannot be requested while serving ${context.method}: only ${inputRoundMethods()} may ask for input`,
      );
    }
    const answer = this.#responses?.[key];
    if (answer !== undefined) return Promise.resolve(answer);
    // Asked after the call answered (from a `finally`, say): too late for this round's result.
    if (this.#ended) return Promise.reject(this.#ended);
    this.requests[key] = method === "roots/list" ? { method } : { method, params };
    if (!this.#needed) {
      if (this.#quietTicks === 0) queueMicrotask(() => this.#tick());
      this.#quietTicks = QUIET_TICKS;
    }
    // Settles only when the round ends: the call answers input_required, and the handler's wait is
    // rejected with the control signal so that its `finally` blocks and `signal` listeners run.
    return new Promise((_resolve, reject) => (this.#waiting ??= []).push(reject));
  }

  /** One quiet tick: the next, or the round needs the client once they have all passed. */
  #tick(): void {
    if (--this.#quietTicks > 0) {
      queueMicrotask(() => this.#tick());
      return;
    }
    this.#needed = true;
    this.#onNeeded?.();
  }

  /** Ends the round: every request still waiting rejects with an {@link InputRequiredSignal}. */
  end(): InputRequiredSignal {
    const signal = (this.#ended ??= new InputRequiredSignal());
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) for (const reject of waiting) reject(signal);
    return signal;
  }
}

/** Checks the shape of `inputResponses`: an object of objects. */
export function checkInputResponses(value: unknown): McpError | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return new McpError(INVALID_PARAMS, 'Invalid params: "inputResponses" must be an object');
  for (const [key, answer] of Object.entries(value)) {
    if (!isObject(answer)) {
      return new McpError(INVALID_PARAMS, `Invalid params: inputResponses[${echoValue(key)}] must be an object`);
    }
  }
  return undefined;
}
