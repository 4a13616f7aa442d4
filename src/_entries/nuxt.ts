/**
 * mcp-h3/nuxt: the Nuxt module. `modules: ["mcp-h3/nuxt"]` in `nuxt.config.ts`, options under the
 * `mcp` key: it serves the definition files of `server/mcp/{tools,resources,prompts,apps}/` at
 * `/mcp` and auto-imports `defineMcpTool` and kin in the server code. Thin by design: it hands its
 * options to the Nitro module (`mcp-h3/nitro`), which Nuxt's Nitro runs with `server/` as its
 * source folder, and nothing of the protocol lives here.
 */
import { addServerImports, defineNuxtModule } from "@nuxt/kit";
import { AUTO_IMPORTS, endpointRoutes, mcpNitroModule, type McpNitroModuleOptions } from "./nitro.ts";
import { addMcpDevtoolsTabs } from "./nuxt-devtools.ts";

export type { McpNitroModuleOptions as McpNuxtModuleOptions } from "./nitro.ts";

/** The Nuxt module; its options are the `mcp` key of `nuxt.config.ts`. */
const mcpNuxtModule = defineNuxtModule<McpNitroModuleOptions>({
  meta: {
    name: "mcp-h3",
    configKey: "mcp",
    // Tested on Nuxt 4 (nitropack 2, h3 1); Nuxt 3 runs the same Nitro but is not tested.
    compatibility: { nuxt: ">=4.0.0" },
  },
  defaults: { route: "/mcp" },
  setup(options, nuxt) {
    addServerImports(AUTO_IMPORTS.map((name) => ({ name, from: "mcp-h3/definitions" })));
    // `nitro` is typed on NuxtOptions by @nuxt/nitro-server's augmentation, which a module need not load.
    const nitro = ((nuxt.options as { nitro?: { modules?: unknown[] } }).nitro ??= {});
    (nitro.modules ??= []).push(mcpNitroModule(options));
    // In dev only: the DevTools' "MCP" tab, and one more per endpoint of mcp/handlers/.
    addMcpDevtoolsTabs(nuxt, () => endpointRoutes([nuxt.options.serverDir], nuxt.options.rootDir, options));
  },
});

export default mcpNuxtModule;
