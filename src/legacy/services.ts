/** What the legacy lane reads beside the shared services: its sessions and its input broker. */
import type { ServerCapabilities } from "../protocol/types.ts";
import type { Services } from "../request/services.ts";
import type { LegacyInputBroker } from "./serve/broker.ts";
import type { LegacySessions } from "./state/sessions.ts";

export interface LegacyServices extends Services {
  /** Legacy sessions, or undefined when they are off (legacy requests are then served statelessly). */
  readonly sessions: LegacySessions | undefined;
  /** Answers input requests on legacy sessions with server→client requests. */
  readonly legacyBroker: LegacyInputBroker;
  /** What `initialize` advertises: the definitions' capabilities and what extensions add for this era. */
  readonly initializeCapabilities: ServerCapabilities;
}
