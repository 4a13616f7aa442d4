/**
 * mcp-h3/nitro: helpers for Nitro apps, nitropack 2 (Nuxt 3–4) and nitro 3 alike. A Nitro route can
 * export `defineMcpHandler(...)` as is; this entry adds the module form that mounts a handler file
 * on a route from the Nitro config.
 */
import { isAbsolute, resolve } from "node:path";

/** Options of {@link mcpNitroModule}. */
export interface McpNitroModuleOptions {
  /** Route to mount the handler on (default `/mcp`). */
  route?: string;
  /**
   * The file whose default export is the handler (`defineMcpHandler(...)`): an absolute path, or a
   * path relative to the app's root folder (Nitro's `rootDir`).
   */
  handler: string;
}

/** The part of Nitro's build context the module touches, the same in nitropack 2 and nitro 3. */
export interface McpNitroLike {
  options: { rootDir: string; handlers: { route: string; handler: string }[] };
}

/** A Nitro module in the shape both majors read: nitropack 2 calls `setup`, nitro 3 `nitro.setup`. */
export interface McpNitroModule {
  name: string;
  setup(nitro: McpNitroLike): void;
  nitro: { name: string; setup(nitro: McpNitroLike): void };
}

/**
 * A Nitro module that mounts an MCP handler file on a route.
 *
 * @example
 * // nitro.config.ts (nitro 3; nitropack 2 takes the same line in defineNitroConfig)
 * import { defineConfig } from "nitro";
 * import { mcpNitroModule } from "mcp-h3/nitro";
 * export default defineConfig({ modules: [mcpNitroModule({ handler: "./mcp-handler.ts" })] });
 */
export function mcpNitroModule(options: McpNitroModuleOptions): McpNitroModule {
  const setup = (nitro: McpNitroLike): void => {
    // Always an absolute path: nitro 3 does not resolve relative handler paths pushed by modules
    // (its virtual routing module imports them from its own folder).
    const handler = isAbsolute(options.handler) ? options.handler : resolve(nitro.options.rootDir, options.handler);
    nitro.options.handlers.push({ route: options.route ?? "/mcp", handler });
  };
  // nitro 3 reads a module from the `nitro` key when there is one (the form its docs recommend,
  // which also lets one object be a Vite plugin); nitropack 2 reads `setup` at the top.
  return { name: "mcp-h3", setup, nitro: { name: "mcp-h3", setup } };
}
