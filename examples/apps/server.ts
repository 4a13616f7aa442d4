// An MCP App served by an h3 v2 app on srvx: show_weather and its view, plus the app-only refresh_weather at
// /mcp; and, to see the view without a chat client, the minimal host of host/ at /host (its sandbox at /sandbox).
// Build the pages first (node scripts/build-app-views.mjs): each becomes one HTML file the server reads here.
import { existsSync, readFileSync } from "node:fs";
import { H3 } from "h3";
import { defineMcpHandler } from "mcp-h3";
import { serve } from "srvx";
import { hostPage, sandboxPage } from "./host/serve.ts";
import { weatherApp } from "./weather.ts";

const built = ["weather-view/dist/weather-view.html", "host/dist/host.html", "host/dist/sandbox.html"].map(
  (file) => new URL(file, import.meta.url),
);
if (!built.every((file) => existsSync(file))) {
  console.error("The pages are not built: run `node scripts/build-app-views.mjs` from the repository root.");
  process.exit(1);
}
const [viewHtml, hostHtml, sandboxHtml] = built.map((file) => readFileSync(file, "utf8"));
const weather = weatherApp(() => viewHtml!);
const send = (page: { html: string; headers: Record<string, string> } | undefined): Response =>
  page ? new Response(page.html, { headers: page.headers }) : new Response("Not Found", { status: 404 });

const app = new H3()
  .all(
    "/mcp",
    defineMcpHandler({ name: "example-apps", version: "1.0.0", tools: weather.tools, resources: weather.resources }),
  )
  // Open http://localhost:3000/host?tool=show_weather&args={"city":"Lisbon"}: the sandbox goes to 127.0.0.1.
  .get("/host", () => send(hostPage(hostHtml!)))
  // Framed only by the host page on the other loopback name; the view runs under what its _meta.ui.csp declared.
  .get("/sandbox", (event) => send(sandboxPage(sandboxHtml!, event.req.url)));

serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
