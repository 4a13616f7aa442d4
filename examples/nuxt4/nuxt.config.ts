// nuxt.config.ts: the mcp-h3 module serves the definition files under server/mcp/ on /mcp
import { defineNuxtConfig } from "nuxt/config";

export default defineNuxtConfig({
  compatibilityDate: "2025-07-01",
  modules: ["mcp-h3/nuxt"],
  mcp: { name: "nuxt4-example", version: "1.0.0" },
});
