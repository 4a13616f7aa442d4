/**
 * mcp-h3/nitro: helpers for Nitro apps. A Nitro route can export `defineMcpHandler(...)` as is;
 * this entry adds the module form that mounts a handler file on a route.
 */

/** Options of {@link mcpNitroModule}. */
export interface McpNitroModuleOptions {
  /** Route to mount the handler on (default `/mcp`). */
  route?: string;
  /** Absolute path of the file whose default export is the handler. */
  handler: string;
}

interface NitroLike {
  options: { handlers: { route: string; handler: string }[] };
}

/**
 * A Nitro module that mounts an MCP handler file on a route.
 *
 * @example
 * // nitro.config.ts
 * modules: [mcpNitroModule({ handler: fileURLToPath(new URL("./mcp-handler.ts", import.meta.url)) })]
 */
export function mcpNitroModule(options: McpNitroModuleOptions): { name: string; setup(nitro: NitroLike): void } {
  return {
    name: "mcp-h3",
    setup(nitro) {
      // An absolute path: Nitro 3 does not resolve relative handler paths pushed by modules.
      nitro.options.handlers.push({ route: options.route ?? "/mcp", handler: options.handler });
    },
  };
}
