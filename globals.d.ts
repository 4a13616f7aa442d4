// The `defineMcp…` that mcp-h3/nitro imports into definition files where Nitro has no auto-imports
// (nitro 3), declared for TypeScript: add "mcp-h3/globals" to `compilerOptions.types`. They are
// imported into the files under mcp/ only; elsewhere, import them from "mcp-h3/definitions".
import type * as definitions from "./dist/definitions.mjs";

declare global {
  const defineMcpTool: typeof definitions.defineMcpTool;
  const defineMcpResource: typeof definitions.defineMcpResource;
  const defineMcpPrompt: typeof definitions.defineMcpPrompt;
  const defineMcpApp: typeof definitions.defineMcpApp;
  const defineMcpConfig: typeof definitions.defineMcpConfig;
}

export {};
