// A plain Nuxt 4 app: server/routes/mcp.ts is the MCP endpoint, nothing else to configure.
export default defineNuxtConfig({
  compatibilityDate: "2025-07-01",
  devtools: { enabled: false },
  telemetry: false,
});
