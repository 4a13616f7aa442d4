/**
 * mcp-h3/shared: what a server needs when several instances share their stores — the routing of
 * legacy sessions between them (initialize on one, call on another, stream on a third, resume
 * anywhere). The `mcp-h3/redis` bus brings it; a store and bus of your own that instances share
 * must bring it too, or `defineMcpHandler` refuses them. A server on the memory stores does not
 * import it, and does not carry it.
 *
 * @example
 * import { sessionRouting } from "mcp-h3/shared";
 * defineMcpHandler({ name: "app", version: "1.0.0", sessions: { store: myStore }, events: myEvents, bus: myBus, extensions: [sessionRouting] });
 */
export { sessionRouting } from "../legacy/bus/shared-sessions.ts";
