import { defineNitroConfig } from "nitropack/config";

// A nitropack 2 app on the module: the definitions are files under mcp/, beside routes/, served at /mcp;
// those under mcp/handlers/admin/ are a second endpoint, on the route its options give.
export default defineNitroConfig({
  compatibilityDate: "2025-07-01",
  srcDir: ".",
  modules: ["mcp-h3/nitro"],
  mcp: {
    name: "nitropack2-module-app",
    version: "1.0.0",
    // A file whose load never settles is given up after 3 s in dev (test/frameworks/live-definitions.ts).
    devLoadTimeoutMs: 3_000,
    handlers: { admin: { name: "admin-endpoint", version: "2.0.0", route: "/mcp-admin" } },
  },
});
