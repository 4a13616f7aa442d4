/** The open `subscriptions/listen` streams of one handler: the cap on their number, and their graceful end. */
import { success, type JsonObject, type JsonRpcId } from "../protocol/jsonrpc.ts";
import { META_SERVER_INFO, META_SUBSCRIPTION_ID } from "../protocol/meta-keys.ts";
import type { Implementation } from "../protocol/types.ts";
import type { SseSink } from "../stream/sse.ts";

/** The open listen streams of this process, for the cap and for a graceful shutdown. */
export class ListenRegistry {
  readonly streams = new Map<SseSink, JsonRpcId>();
  readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Ends every listen stream with its result frame (closing a sink releases its slot). */
  closeAll(serverInfo: Implementation): void {
    for (const [sink, id] of this.streams) {
      sink.send(success(id, listenResult(serverInfo, id)));
      sink.close();
    }
    this.streams.clear();
  }
}

/** The result that ends a listen stream gracefully. */
export function listenResult(serverInfo: Implementation, id: JsonRpcId): JsonObject {
  return {
    resultType: "complete",
    _meta: { [META_SUBSCRIPTION_ID]: id, [META_SERVER_INFO]: serverInfo },
  };
}
