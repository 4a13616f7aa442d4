// Nothing to configure: server/routes/mcp.ts answers on /mcp.
export default defineNuxtConfig({ compatibilityDate: "2025-07-01" });
