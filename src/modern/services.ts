/** What the modern lane reads beside the shared services: its listen streams and its MRTR state codec. */
import type { ServerCapabilities } from "../protocol/types.ts";
import type { McpListenSource } from "../types/extensions.ts";
import type { Services } from "../request/services.ts";
import type { ListenRegistry } from "./listen/listen-registry.ts";
import type { RequestStateCodec } from "./mrtr/request-state.ts";

export interface ModernServices extends Services {
  /** Open `subscriptions/listen` streams. */
  readonly listens: ListenRegistry;
  /** Seals and opens MRTR `requestState`. */
  readonly requestStates: RequestStateCodec;
  /** What `server/discover` advertises: the definitions' capabilities and what extensions add for this era. */
  readonly discoverCapabilities: ServerCapabilities;
  /** The keys of a listen filter extensions serve (the tasks extension's `taskIds`). */
  readonly listenSources: ReadonlyMap<string, McpListenSource>;
}
