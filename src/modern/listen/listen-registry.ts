/**
 * The open `subscriptions/listen` streams of one handler: the caps on their number (in all, and per
 * principal with auth on), and their graceful end.
 */
import { success, type JsonObject, type JsonRpcId } from "../../protocol/jsonrpc.ts";
import { META_SERVER_INFO, META_SUBSCRIPTION_ID } from "../../protocol/meta-keys.ts";
import type { Implementation } from "../../protocol/types.ts";
import type { SseSink } from "../../stream/sse.ts";

/** The open listen streams of this process, for the caps and for a graceful shutdown. */
export class ListenRegistry {
  readonly streams = new Map<SseSink, JsonRpcId>();
  readonly max: number;
  readonly maxPerPrincipal: number;
  /** Open streams per principal; a principal leaves the map with its last stream. */
  readonly #perPrincipal = new Map<string, number>();

  constructor(max: number, maxPerPrincipal: number) {
    this.max = max;
    this.maxPerPrincipal = maxPerPrincipal;
  }

  /** Number of listen streams `principal` holds open. */
  countOf(principal: string): number {
    return this.#perPrincipal.get(principal) ?? 0;
  }

  /** Which cap a new stream of `principal` would pass, if any: check it right before {@link hold}. */
  refusal(principal: string | undefined): "full" | "principal-full" | undefined {
    if (this.streams.size >= this.max) return "full";
    if (principal !== undefined && this.countOf(principal) >= this.maxPerPrincipal) return "principal-full";
    return undefined;
  }

  /** Takes a slot for a stream; the returned function gives it back (calling it again does nothing). */
  hold(sink: SseSink, id: JsonRpcId, principal: string | undefined): () => void {
    this.streams.set(sink, id);
    if (principal !== undefined) this.#perPrincipal.set(principal, this.countOf(principal) + 1);
    return () => {
      // Gone already: released before, or every slot was cleared by closeAll.
      if (!this.streams.delete(sink) || principal === undefined) return;
      const left = this.countOf(principal) - 1;
      if (left > 0) this.#perPrincipal.set(principal, left);
      else this.#perPrincipal.delete(principal);
    };
  }

  /** Ends every listen stream with its result frame (closing a sink releases its slot). */
  closeAll(serverInfo: Implementation): void {
    for (const [sink, id] of this.streams) {
      sink.send(success(id, listenResult(serverInfo, id)));
      sink.close();
    }
    this.streams.clear();
    this.#perPrincipal.clear();
  }
}

/** The result that ends a listen stream gracefully. */
export function listenResult(serverInfo: Implementation, id: JsonRpcId): JsonObject {
  return {
    resultType: "complete",
    _meta: { [META_SUBSCRIPTION_ID]: id, [META_SERVER_INFO]: serverInfo },
  };
}
