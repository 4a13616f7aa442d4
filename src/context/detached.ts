/**
 * A request's context copied for work that goes on detached from the request (the seam's
 * `McpToolCall.run`): the copy has a cancellation of its own, may carry `mcp.task`, has its input
 * requests answered by whoever detached it, and sends its notifications where it is told. The
 * handler sees it on a copy of the event, so the request's own `event.context.mcp` stays as it was.
 */
import type { H3Event } from "h3";
import type { McpToolRun } from "../types/extensions.ts";
import { RelayChannel } from "../stream/relay-channel.ts";
import {
  RequestContext,
  abortRequest,
  catalogOf,
  channelOf,
  initOf,
  useCatalog,
  type ContextLane,
} from "./request-context.ts";

/**
 * A context like `original`'s, whose `signal` is `options.signal` (the request's disconnect no longer
 * cancels it), whose `task` is `options.task`, and whose input requests go through `options.ask`.
 * Progress and log go to `options.relay` when given, else to the request's response while it is
 * open, and are dropped once it was answered. `event` is the copy of the event it is set on.
 */
export function detachedContext(
  original: RequestContext,
  options: McpToolRun,
): { context: RequestContext; event: H3Event } {
  const init = initOf(original);
  const { ask, relay } = options;
  const lane: ContextLane = {
    openChannel: () => (relay ? new RelayChannel(relay) : channelOf(original)),
    cancelOnDisconnect: false,
    broker: {
      request(_context, key, method, params, timeoutMs) {
        const viaRequest = (): Promise<unknown> => {
          // A round the request answers carries the handler's state, set on its own context.
          original.state = detached.state;
          return init.lane.broker.request(original, key, method, params, timeoutMs);
        };
        return ask ? ask({ key, method, params, timeoutMs }, viaRequest) : viaRequest();
      },
    },
  };
  const event = Object.create(init.event, {
    context: { value: { ...init.event.context }, enumerable: true, writable: true },
  }) as H3Event;
  const detached: RequestContext = new RequestContext({ ...init, lane, event, task: options.task });
  useCatalog(detached, catalogOf(original));
  // The state the request's lane opened (modern: from `requestState`) goes with the copy.
  detached.state = original.state;
  event.context.mcp = detached;
  const signal = options.signal;
  if (signal.aborted) abortRequest(detached, signal.reason);
  else signal.addEventListener("abort", () => abortRequest(detached, signal.reason), { once: true });
  return { context: detached, event };
}
