/**
 * The "MCP" tab of the Nuxt DevTools, in `nuxi dev` only: the inspector page (mcp-h3/inspector), served by the
 * dev build at {@link DEVTOOLS_INSPECTOR_ROUTE} and framed by the DevTools, connected to the app's endpoint. Nothing
 * of it is registered in a production build (`nuxt.options.dev` is false there): no route, no page, no tab.
 * The page keeps its loopback rule, which holds through the dev server's proxy (src/nitro-dev-proxy.ts).
 */
import { addServerHandler, addServerTemplate } from "@nuxt/kit";
import type { Nuxt } from "@nuxt/schema";

/** Where the dev build serves the inspector page for the DevTools tab. */
export const DEVTOOLS_INSPECTOR_ROUTE = "/__mcp-h3/inspector";

const TEMPLATE = "#mcp-h3/devtools-inspector";

/**
 * The tab's icon, a small "MCP" glyph served by the dev build beside the page: the DevTools take an icon's URL as an
 * image, and would fetch an Iconify name from the network.
 */
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#00dc82" stroke-width="2" ' +
  'stroke-linecap="round"><path d="M4 12 12 4a3 3 0 0 1 4 4l-7 7"/><path d="M9 11l5-5a3 3 0 0 1 4 4l-6 6a1 1 0 0 0 0 1.5L14 20"/></svg>';
const ICON_ROUTE = "/__mcp-h3/icon.svg";
const ICON_TEMPLATE = "#mcp-h3/devtools-icon";

/**
 * In dev: serves the inspector page and adds a DevTools tab that shows it for each endpoint (`endpoints` is called
 * in dev alone, since it reads the folders): "MCP" for the default one, "MCP <name>" for each of `mcp/handlers/`.
 */
export function addMcpDevtoolsTabs(nuxt: Nuxt, endpoints: () => { name?: string; route: string }[]): void {
  if (!nuxt.options.dev) return;
  const [main, ...others] = endpoints();
  // Framed by the DevTools (same origin), so `embeddable`; the default endpoint is the module's route, the others
  // are named in each tab's URL (a same-origin `?endpoint=`).
  const options = JSON.stringify({ endpoint: main!.route, embeddable: true });
  addServerTemplate({
    filename: TEMPLATE,
    getContents: () =>
      `import { defineMcpInspector } from "mcp-h3/inspector";\nexport default defineMcpInspector(${options});\n`,
  });
  addServerHandler({ route: DEVTOOLS_INSPECTOR_ROUTE, method: "get", handler: TEMPLATE });
  addServerTemplate({
    filename: ICON_TEMPLATE,
    getContents: () =>
      `import { defineEventHandler, setResponseHeader } from "h3";\n` +
      `export default defineEventHandler((event) => {\n` +
      `  setResponseHeader(event, "content-type", "image/svg+xml");\n` +
      `  return ${JSON.stringify(ICON_SVG)};\n});\n`,
  });
  addServerHandler({ route: ICON_ROUTE, method: "get", handler: ICON_TEMPLATE });
  const base = nuxt.options.app.baseURL.replace(/\/$/, "");
  const tabs = [main!, ...others].map((endpoint) => {
    const query = new URLSearchParams({ endpoint: `${base}${endpoint.route}`, connect: "1" });
    return {
      name: endpoint.name === undefined ? "mcp-h3" : `mcp-h3-${endpoint.name}`,
      title: endpoint.name === undefined ? "MCP" : `MCP ${endpoint.name}`,
      icon: `${base}${ICON_ROUTE}`,
      category: "server",
      view: { type: "iframe", src: `${base}${DEVTOOLS_INSPECTOR_ROUTE}?${query}` },
    };
  });
  // The hook of @nuxt/devtools (what its kit's addCustomTab does), typed there; untyped here, so that the module
  // needs no DevTools package: without the DevTools the hook is never called.
  const hook = nuxt.hook as unknown as (name: string, callback: (tabs: unknown[]) => void) => void;
  hook("devtools:customTabs", (list) => {
    list.push(...tabs);
  });
}
