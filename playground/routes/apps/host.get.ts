/**
 * GET /apps/host: a minimal MCP Apps host (examples/apps/host), to see an app's view rendered without a chat
 * client. It calls `?tool=` with `?args=` on this playground's /mcp and shows the tool's view in a sandboxed
 * frame served from /apps/sandbox on the other loopback name (localhost ↔ 127.0.0.1), as the spec requires.
 * No other site may frame it. Try /apps/host?tool=show_weather&args={"city":"Lisbon"} (the playground's page links it).
 */
import { defineEventHandler, setResponseHeaders } from "h3";
import { hostPage } from "../../../examples/apps/host/serve";
// Built by `npm run playground` (scripts/build-app-views.mjs); Nitro imports .html files as text.
import hostHtml from "../../../examples/apps/host/dist/host.html";

export default defineEventHandler((event) => {
  const page = hostPage(hostHtml);
  setResponseHeaders(event, page.headers);
  return page.html;
});
