/** The engine's extension point as the legacy lane's own extensions see it. */
import type { McpExtensionPoint } from "../types/extensions.ts";
import type { SessionRouting } from "./state/routing.ts";
import type { LegacySessions } from "./state/sessions.ts";

export interface LegacyExtensionPoint extends McpExtensionPoint {
  /**
   * Plugs in the routing of legacy sessions between instances sharing the stores (once per
   * handler; nothing happens with sessions off).
   */
  routeSessions(create: (sessions: LegacySessions) => SessionRouting): void;
}

/** The point a handler gives its extensions, with its legacy part (every handler's point has one). */
export function legacyPointOf(point: McpExtensionPoint): LegacyExtensionPoint {
  if (typeof (point as Partial<LegacyExtensionPoint>).routeSessions !== "function") {
    throw new TypeError("mcp-h3: this extension plugs into a handler made by defineMcpHandler only");
  }
  return point as LegacyExtensionPoint;
}
