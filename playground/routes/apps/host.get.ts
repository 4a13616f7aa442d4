/**
 * GET /apps/host: a minimal MCP Apps host (examples/apps/host), to see an app's view rendered without a chat
 * client. It calls `?tool=` with `?args=` on this playground's /mcp and shows the tool's view in a sandboxed
 * frame served from /apps/sandbox on the other loopback name (localhost ↔ 127.0.0.1), as the spec requires.
 * Try /apps/host?tool=show_weather&args={"city":"Lisbon"} (the playground's page links it).
 */
import { defineEventHandler, setResponseHeader } from "h3";
// Built by `npm run playground` (scripts/build-app-views.mjs); Nitro imports .html files as text.
import hostPage from "../../../examples/apps/host/dist/host.html";

export default defineEventHandler((event) => {
  setResponseHeader(event, "content-type", "text/html; charset=utf-8");
  return hostPage;
});
