// A Nuxt 4 app on the module: the definitions are files under server/mcp/, served at /mcp; those
// under server/mcp/handlers/admin/ are a second endpoint, at /mcp/admin.
export default defineNuxtConfig({
  compatibilityDate: "2025-07-01",
  devtools: { enabled: false },
  telemetry: false,
  modules: ["mcp-h3/nuxt"],
  mcp: {
    name: "nuxt4-module-app",
    version: "1.0.0",
    // A file whose load never settles is given up after 3 s in dev (test/frameworks/live-definitions.ts).
    devLoadTimeoutMs: 3_000,
    handlers: { admin: { name: "admin-endpoint", version: "2.0.0" } },
  },
});
