/**
 * The fixture's MCP App (issue 24): the weather app of examples/apps (`show_weather`, its `ui://` view,
 * and `refresh_weather`, which only the view calls). The view's HTML is bundled from
 * examples/apps/weather-view the first time a client reads it (scripts/build-app-views.mjs, about a
 * second), so processes that never read it never pay for it.
 */
import { weatherApp } from "../../examples/apps/weather.ts";
import { buildAppView } from "../../scripts/build-app-views.mjs";

let viewHtml: Promise<string> | undefined;

/** The weather view's HTML, built once per process; a failed build is retried at the next read. */
function weatherViewHtml(): Promise<string> {
  viewHtml ??= buildAppView("weather-view").catch((error: unknown) => {
    viewHtml = undefined;
    throw error;
  });
  return viewHtml;
}

export const fixtureApp = weatherApp(weatherViewHtml);
