// A Nuxt 4 app on the module, run with `nuxi dev` and the Nuxt DevTools on: the "MCP" tab shows the inspector.
export default defineNuxtConfig({
  compatibilityDate: "2025-07-01",
  devtools: { enabled: true, telemetry: false },
  telemetry: false,
  modules: ["mcp-h3/nuxt"],
  mcp: { name: "nuxt4-dev-app", version: "1.0.0" },
});
