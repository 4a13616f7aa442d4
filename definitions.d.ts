// The types of mcp-h3/definitions at the path Nitro's generated auto-import declarations name
// (`typeof import("…/node_modules/mcp-h3/definitions")`): they point at the package's folder,
// past its `exports`, so TypeScript finds the declarations through this file.
export * from "./dist/definitions.mjs";
// Loaded with them, the Nitro module's types, which type the `mcp` key of the Nitro config
// (`modules: ["mcp-h3/nitro"]` imports nothing the config's type-check would see).
import type {} from "./dist/nitro.mjs";
