/**
 * mcp-h3/nitro: the Nitro module, for nitropack 2 (Nuxt 3–4) and nitro 3 alike. Enabled as
 * `modules: ["mcp-h3/nitro"]` and configured under the `mcp` key, it serves the definition files of
 * `mcp/tools/`, `mcp/resources/`, `mcp/prompts/` and `mcp/apps/` beside `routes/` at `/mcp`, and
 * auto-imports `defineMcpTool` and kin where Nitro auto-imports (nitropack 2). With a `handler`
 * file, `mcpNitroModule` mounts that file instead, as it always did.
 */
import { isAbsolute, resolve } from "node:path";
import { AUTO_IMPORTS, definitionImports, handlerModule, scanDefinitions } from "./nitro-files.ts";
import { vouchForDevProxy, type DevProxyNitroOptions } from "./nitro-dev-proxy.ts";
import type { McpHandlerOptions } from "./types/options.ts";

/** Options of {@link mcpNitroModule}, and the `mcp` key of the Nitro or Nuxt config. */
export interface McpNitroModuleOptions extends Partial<Omit<McpHandlerOptions, "tools" | "resources" | "prompts">> {
  /** Route to serve on (default `/mcp`). */
  route?: string;
  /**
   * A file whose default export is the handler (`defineMcpHandler(...)`), mounted as is: an absolute
   * path, or one relative to the app's root folder (Nitro's `rootDir`). Without it, the module
   * serves the definition files.
   */
  handler?: string;
}

/** The part of Nitro's build context the module touches, the same in nitropack 2 and nitro 3. */
export interface McpNitroLike {
  options: {
    rootDir: string;
    handlers: { route: string; handler: string }[];
    /** The folders Nitro scans for routes (nitropack 2: `srcDir` first; nitro 3: `serverDir` when set). */
    scanDirs?: string[];
    srcDir?: string;
    /** Build-time modules by id (both majors). */
    virtual?: Record<string, string | (() => string | Promise<string>)>;
    /** nitropack 2's auto-imports (nitro 3 has none). */
    imports?: false | { presets?: unknown[]; imports?: { name: string; from: string }[] };
    /** Bundler options both majors merge into theirs (nitro 3 reads `rolldownConfig` first). */
    rollupConfig?: { plugins?: unknown[] };
    mcp?: McpNitroModuleOptions;
  } & DevProxyNitroOptions;
}

/** A Nitro module in the shape both majors read: nitropack 2 calls `setup`, nitro 3 `nitro.setup`. */
export interface McpNitroModule {
  name: string;
  setup(nitro: McpNitroLike): void;
  nitro: { name: string; setup(nitro: McpNitroLike): void };
}

export { AUTO_IMPORTS } from "./nitro-files.ts";
const DEFINITIONS_ENTRY = "mcp-h3/definitions";

/**
 * The Nitro module. Its options are merged over the `mcp` key of the Nitro config.
 *
 * @example
 * // nitro.config.ts (nitropack 2; nitro 3 takes the same line in defineConfig)
 * export default defineNitroConfig({ modules: ["mcp-h3/nitro"], mcp: { name: "my-app", version: "1.0.0" } });
 * // routes/ beside mcp/tools/echo.ts: served as the tool "echo" at /mcp
 */
export function mcpNitroModule(options: McpNitroModuleOptions = {}): McpNitroModule {
  const setup = (nitro: McpNitroLike): void => {
    vouchForDevProxy(nitro.options); // in dev only: the inspector's loopback rule through the dev server's proxy
    const merged: McpNitroModuleOptions = { ...nitro.options.mcp, ...options };
    const { route = "/mcp", handler, ...handlerOptions } = merged;
    if (handler !== undefined) {
      // Always an absolute path: nitro 3 does not resolve relative handler paths pushed by modules
      // (its virtual routing module imports them from its own folder).
      const path = isAbsolute(handler) ? handler : resolve(nitro.options.rootDir, handler);
      nitro.options.handlers.push({ route, handler: path });
      return;
    }
    const plain = plainOptions(handlerOptions);
    const dirs = serverDirs(nitro.options);
    // Scanned now, so that a bad file fails the build before bundling; again when the module is
    // written, which is what the bundler reads.
    scanDefinitions(dirs, nitro.options.rootDir);
    const id = `#mcp-h3/handler${route === "/mcp" ? "" : route}`;
    nitro.options.virtual ??= {};
    nitro.options.virtual[id] = () => handlerModule(scanDefinitions(dirs, nitro.options.rootDir), plain);
    nitro.options.handlers.push({ route, handler: id });
    addAutoImports(nitro.options, dirs);
  };
  // nitro 3 reads a module from the `nitro` key when there is one (the form its docs recommend,
  // which also lets one object be a Vite plugin); nitropack 2 reads `setup` at the top.
  return { name: "mcp-h3", setup, nitro: { name: "mcp-h3", setup } };
}

/** `modules: ["mcp-h3/nitro"]`: the module configured by the `mcp` key alone. */
const mcpModule: McpNitroModule = mcpNitroModule();
export default mcpModule;

/** The folders whose `mcp/` holds definitions: Nitro's scanned folders, else its source folder. */
function serverDirs(options: McpNitroLike["options"]): string[] {
  if (options.scanDirs !== undefined && options.scanDirs.length > 0) return options.scanDirs;
  return [options.srcDir ?? options.rootDir];
}

/**
 * nitropack 2 auto-imports into server code: the definitions join its list, unless a framework
 * (Nuxt) already added them. Where Nitro has no auto-imports (nitro 3), a bundler plugin adds the
 * import to the definition files alone.
 */
function addAutoImports(options: McpNitroLike["options"], dirs: readonly string[]): void {
  const imports = options.imports;
  if (imports === undefined || imports === false) {
    options.rollupConfig ??= {};
    (options.rollupConfig.plugins ??= []).push(definitionImports(dirs));
    return;
  }
  imports.imports ??= [];
  const have = new Set(imports.imports.filter((entry) => entry.from === DEFINITIONS_ENTRY).map((entry) => entry.name));
  for (const name of AUTO_IMPORTS) if (!have.has(name)) imports.imports.push({ name, from: DEFINITIONS_ENTRY });
}

/**
 * The config key's options, as JSON the generated module carries: code (a function, a store, a
 * class instance) cannot be written there and belongs in `mcp/config.ts`, which the error says.
 */
function plainOptions(options: Record<string, unknown>): Record<string, unknown> {
  const check = (value: unknown, path: string): void => {
    if (value === null || ["string", "number", "boolean", "undefined"].includes(typeof value)) return;
    if (Array.isArray(value)) return value.forEach((item, index) => check(item, `${path}[${index}]`));
    const prototype = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
    if (prototype === Object.prototype || prototype === null) {
      for (const [key, item] of Object.entries(value as object)) check(item, `${path}.${key}`);
      return;
    }
    throw new Error(
      `mcp-h3: the config key's ${path} is code (${typeof value}); give it in mcp/config.ts, whose default export is merged over the config key`,
    );
  };
  check(options, "mcp");
  return options;
}
