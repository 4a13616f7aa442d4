/**
 * How the session routing (`state/routing.ts`) comes into a handler: `sessionRouting` of
 * mcp-h3/shared is given like an extension and carries the routing's constructor.
 */
import type { McpExtension } from "../../types/extensions.ts";
import type { Bus } from "../../types/stores.ts";
import type { SessionRouting } from "./routing.ts";
import type { LegacySessions } from "./sessions.ts";

/**
 * The key under which `sessionRouting` (mcp-h3/shared) carries how to build the routing. The
 * routing is the legacy lane's own machinery, shipped from its own entry so that a server on the
 * memory stores does not carry it; it comes the way extensions come (given in `extensions`, or
 * carried by a shared store) but is no extension of the seam: the engine finds it among them by
 * this key, and the extension point has nothing hidden for it.
 */
export const ROUTES_SESSIONS: unique symbol = Symbol("routing");

/** `sessionRouting`: an extension (for how it is given) that carries the routing's constructor. */
export interface SessionRoutingPart extends McpExtension {
  readonly [ROUTES_SESSIONS]: (sessions: LegacySessions, bus: Bus) => SessionRouting;
}

/** Whether `extension` is the session routing. */
export function isSessionRouting(extension: McpExtension): extension is SessionRoutingPart {
  return ROUTES_SESSIONS in extension;
}
