/**
 * The weather view: an MCP App view built on the `App` class of `@modelcontextprotocol/ext-apps`.
 * It runs in the host's sandboxed frame and talks to the host over `postMessage`:
 *
 * - `app.connect()` sends `ui/initialize` and, once the host answers, `ui/notifications/initialized`;
 * - the host then sends the tool's input (`ontoolinput`) and its result (`ontoolresult`), shown here;
 * - the Refresh button calls the server's app-only tool `refresh_weather` with `app.callServerTool`: the
 *   host forwards the `tools/call` to the MCP server over its own connection and hands the answer back.
 *
 * `scripts/build-app-views.mjs` bundles this file (the App class and zod included) into index.html, so
 * the server serves one self-contained HTML document as its `ui://` resource. index.html sets zod jitless
 * before this module runs, so a strict CSP sees no `eval` probe.
 */
import { App, applyDocumentTheme, applyHostStyleVariables } from "@modelcontextprotocol/ext-apps";
import type { CallToolResult } from "@modelcontextprotocol/client";

/** What `show_weather` and `refresh_weather` put in `structuredContent`. */
interface Reading {
  city: string;
  temperatureC: number;
  conditions: string;
  reading: number;
  era?: string;
}

const element = (id: string): HTMLElement => document.getElementById(id)!;
const refresh = element("refresh") as HTMLButtonElement;

function isReading(value: unknown): value is Reading {
  const reading = value as Partial<Reading> | null;
  return typeof reading?.city === "string" && typeof reading.temperatureC === "number";
}

function describe(reading: Reading): string {
  return `${reading.city}: ${reading.temperatureC} °C, ${reading.conditions} (reading ${reading.reading})`;
}

function showError(message: string): void {
  const error = element("error");
  error.textContent = message;
  error.hidden = false;
}

/** The text a result carries for the model: shown when a result has no structured reading. */
function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join(" ");
}

let city: string | undefined;

const app = new App({ name: "weather-view", version: "1.0.0" }, {});

// Handlers first: the host may send the tool's input as soon as the handshake is done.
app.ontoolinput = ({ arguments: args }) => {
  city = typeof args?.city === "string" ? args.city : undefined;
  element("input").textContent = city === undefined ? JSON.stringify(args ?? {}) : `city: ${city}`;
};

app.ontoolresult = (result) => {
  const reading = result.structuredContent;
  if (result.isError || !isReading(reading)) {
    element("result").textContent = textOf(result);
    return;
  }
  city = reading.city;
  element("title").textContent = `Weather in ${reading.city}`;
  element("result").textContent = describe(reading);
  refresh.disabled = false;
};

app.onhostcontextchanged = (context) => {
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
};

refresh.addEventListener("click", () => {
  refresh.disabled = true;
  // Through the host: the view never talks to the MCP server itself (its CSP allows no connection).
  app
    .callServerTool({ name: "refresh_weather", arguments: { city: city ?? "" } })
    .then((result) => {
      const reading = result.structuredContent;
      element("refreshed").textContent = isReading(reading)
        ? `${describe(reading)}, served by mcp-h3 in the ${reading.era} era`
        : textOf(result);
    })
    .catch((error: unknown) => showError(`refresh_weather failed: ${String(error)}`))
    .finally(() => (refresh.disabled = false));
});

app
  .connect()
  .then(() => {
    const host = app.getHostVersion();
    const context = app.getHostContext();
    if (context?.theme) applyDocumentTheme(context.theme);
    if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
    element("status").textContent = `Connected to ${host?.name ?? "the host"}`;
  })
  .catch((error: unknown) => showError(`Could not connect to the host: ${String(error)}`));
