/**
 * mcp-h3/nitro: the Nitro module, for nitropack 2 (Nuxt 3–4) and nitro 3 alike. Enabled as
 * `modules: ["mcp-h3/nitro"]` and configured under the `mcp` key, it serves the definition files of
 * `mcp/tools/`, `mcp/resources/`, `mcp/prompts/` and `mcp/apps/` beside `routes/` at `/mcp` (with the
 * `SKILL.md` folders of `mcp/skills/` as skills), those of
 * each `mcp/handlers/<name>/` as one more endpoint at `/mcp/<name>`, and auto-imports
 * `defineMcpTool` and kin where Nitro auto-imports (nitropack 2). With a `handler` file,
 * `mcpNitroModule` mounts that file instead, as it always did.
 */
import { isAbsolute, resolve } from "node:path";
import { AUTO_IMPORTS, definitionImports, handlerModule, scanDefinitions, scanHandlerNames } from "./nitro-files.ts";
import { liveHandlerModule } from "../dev/dev-module.ts";
import { scanSkillFolders, skillsModuleCode } from "./nitro-skill-folders.ts";
import { plainOptions } from "./nitro-plain-options.ts";
import { DEV_LOAD_TIMEOUT_MS } from "../dev/load-timeout.ts";
import { positiveOption } from "../protocol/positive-option.ts";
import { vouchForDevProxy, type DevProxyNitroOptions } from "./nitro-dev-proxy.ts";
import type { McpHandlerOptions } from "../types/options.ts";
import type { SkillsOptions } from "../types/skills.ts";
import { skills as skillsExtension } from "../skills/extension.ts";

/**
 * The plain options of one more endpoint, `mcp.handlers.<name>` for the folder
 * `mcp/handlers/<name>/`: its own, nothing inherited from the default endpoint's (its code options
 * go in `mcp/handlers/<name>/config.ts`).
 */
export interface McpNitroHandlerOptions extends Partial<Omit<McpHandlerOptions, "tools" | "resources" | "prompts">> {
  /** Route to serve on (default: the default endpoint's route, then `/<name>`: `/mcp/<name>`). */
  route?: string;
  /** Options of the skills extension serving the endpoint's `skills/` folders (`skills()`' own). */
  skills?: SkillsOptions;
}

/** Options of {@link mcpNitroModule}, and the `mcp` key of the Nitro or Nuxt config. */
export interface McpNitroModuleOptions extends Partial<Omit<McpHandlerOptions, "tools" | "resources" | "prompts">> {
  /** Route to serve on (default `/mcp`). */
  route?: string;
  /**
   * Options of the skills extension serving the `SKILL.md` folders of `mcp/skills/`: those of
   * `skills()` (`directoryRead`, `pageSize`, `cacheHints`). Checked when the app is built.
   *
   * @example
   * mcp: { skills: { directoryRead: false, cacheHints: { ttlMs: 300_000, cacheScope: "public" } } }
   */
  skills?: SkillsOptions;
  /**
   * The other endpoints' plain options, by the name of their folder under `mcp/handlers/`: each
   * folder is one more handler, with its own definitions, served at `/mcp/<name>` unless its
   * `route` says otherwise. A name here with no folder fails the build.
   *
   * @example
   * // mcp/handlers/admin/tools/purge.ts is the tool "purge" of /mcp/admin, and of it alone
   * mcp: { name: "my-app", version: "1.0.0", handlers: { admin: { name: "my-app-admin", version: "1.0.0" } } }
   */
  handlers?: Record<string, McpNitroHandlerOptions>;
  /**
   * A file whose default export is the handler (`defineMcpHandler(...)`), mounted as is: an absolute
   * path, or one relative to the app's root folder (Nitro's `rootDir`). Without it, the module
   * serves the definition files.
   */
  handler?: string;
  /**
   * Under `nitro dev` / `nuxi dev`, how long the evaluation of one definition file may take before
   * its load is given up, the file named and the last good files kept served (ms, default 10 000):
   * a file whose top-level `await` never settles would else stop every later reload.
   */
  devLoadTimeoutMs?: number;
}

/** The part of Nitro's build context the module touches, the same in nitropack 2 and nitro 3. */
export interface McpNitroLike {
  options: {
    rootDir: string;
    /** True under `nitro dev` / `nuxi dev`: the definition files are then served live (see dev/). */
    dev?: boolean;
    buildDir?: string;
    handlers: { route: string; handler: string; lazy?: boolean }[];
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
    const { route = "/mcp", handler, devLoadTimeoutMs, ...handlerOptions } = merged;
    const loadTimeoutMs = positiveOption("mcp-h3: the config key's devLoadTimeoutMs", devLoadTimeoutMs, {
      fallback: DEV_LOAD_TIMEOUT_MS,
    });
    if (handler !== undefined) {
      // Always an absolute path: nitro 3 does not resolve relative handler paths pushed by modules
      // (its virtual routing module imports them from its own folder).
      const path = isAbsolute(handler) ? handler : resolve(nitro.options.rootDir, handler);
      nitro.options.handlers.push({ route, handler: path });
      return;
    }
    const { handlers = {}, ...defaultOptions } = handlerOptions;
    const dirs = serverDirs(nitro.options);
    const rootDir = nitro.options.rootDir;
    const endpoints = [
      { route, handler: undefined, options: plainOptions(defaultOptions, "mcp") },
      ...otherEndpoints(scanHandlerNames(dirs, rootDir), handlers, route),
    ];
    const routes = new Map<string, string>();
    for (const endpoint of endpoints) {
      // skills() checks its options when made: made here, a wrong one fails the build, not the server's start.
      if (endpoint.options.skills !== undefined) skillsExtension([], endpoint.options.skills as SkillsOptions);
      const label = endpoint.handler === undefined ? "the default endpoint" : `mcp/handlers/${endpoint.handler}/`;
      const other = routes.get(endpoint.route);
      if (other !== undefined) throw new Error(`mcp-h3: ${other} and ${label} are both routed to ${endpoint.route}`);
      routes.set(endpoint.route, label);
      // In dev, the running handler reads the files and reports a bad one (dev/dev-module.ts).
      const live = liveHandlerModule(nitro.options, dirs, endpoint.options, {
        handler: endpoint.handler,
        loadTimeoutMs,
      });
      // Scanned now, so that a bad file fails the build before bundling; again when the module is
      // written, which is what the bundler reads.
      if (live === undefined) builtModule(dirs, rootDir, endpoint);
      const id = `#mcp-h3/handler${endpoint.route === "/mcp" ? "" : endpoint.route}`;
      nitro.options.virtual ??= {};
      nitro.options.virtual[id] = live ?? (() => builtModule(dirs, rootDir, endpoint));
      // Lazy: each endpoint is a chunk of its own, loaded on its first request. Besides sparing the
      // other routes' start, this keeps a raw import (an app's view as `.html`) out of Nitro's main
      // chunk, where nitropack 2 then leaves `import.meta.url` unrewritten and public assets 404.
      nitro.options.handlers.push({ route: endpoint.route, handler: id, lazy: true });
    }
    addAutoImports(nitro.options, dirs);
  };
  // nitro 3 reads a module from the `nitro` key when there is one (the form its docs recommend,
  // which also lets one object be a Vite plugin); nitropack 2 reads `setup` at the top.
  return { name: "mcp-h3", setup, nitro: { name: "mcp-h3", setup } };
}

/** `modules: ["mcp-h3/nitro"]`: the module configured by the `mcp` key alone. */
const mcpModule: McpNitroModule = mcpNitroModule();
export default mcpModule;

/**
 * The handler module of a build: the endpoint's definition files imported, the skill folders of
 * its `skills/` read and carried in it (both checked: a bad one throws naming the file).
 */
function builtModule(
  dirs: readonly string[],
  rootDir: string,
  endpoint: { handler: string | undefined; options: Record<string, unknown> },
): string {
  const found = scanDefinitions(dirs, rootDir, endpoint.handler);
  const skills = scanSkillFolders(dirs, rootDir, { handler: endpoint.handler });
  const { skills: skillsOptions, ...options } = endpoint.options;
  return handlerModule(found, options, skillsModuleCode(skills, skillsOptions as SkillsOptions | undefined));
}

/** One more endpoint: a folder under `mcp/handlers/`, its route and its plain options. */
interface OtherEndpoint {
  route: string;
  handler: string;
  options: Record<string, unknown>;
}

/**
 * The endpoints of the folders under `mcp/handlers/`, each with the options of its name under the
 * config key's `handlers`; a name there without a folder is a typo the build reports.
 */
function otherEndpoints(
  names: readonly string[],
  given: Record<string, McpNitroHandlerOptions>,
  defaultRoute: string,
): OtherEndpoint[] {
  for (const name of Object.keys(given)) {
    if (!names.includes(name)) {
      throw new Error(
        `mcp-h3: the config key's handlers.${name} has no folder mcp/handlers/${name}/ (the handlers found: ${names.join(", ") || "none"})`,
      );
    }
  }
  return names.map((name) => {
    const { route = handlerRoute(defaultRoute, name), ...options } = given[name] ?? {};
    // The server's name defaults to the folder's, so that clients tell the endpoints apart.
    return { route, handler: name, options: plainOptions({ name, ...options }, `mcp.handlers.${name}`) };
  });
}

/** The default route of the endpoint `mcp/handlers/<name>/`: the default endpoint's, then `/<name>`. */
function handlerRoute(defaultRoute: string, name: string): string {
  return `${defaultRoute.replace(/\/+$/, "")}/${name}`;
}

/**
 * The app's endpoints as the module serves them, the default one first (no `name`), then each
 * folder of `mcp/handlers/` under the server folders `serverDirs`, with its route.
 */
export function endpointRoutes(
  serverDirs: readonly string[],
  rootDir: string,
  options: McpNitroModuleOptions,
): { name?: string; route: string }[] {
  const route = options.route ?? "/mcp";
  return [
    { route },
    ...scanHandlerNames(serverDirs, rootDir).map((name) => ({
      name,
      route: options.handlers?.[name]?.route ?? handlerRoute(route, name),
    })),
  ];
}

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

// The `mcp` key typed where the config is written, in both majors' NitroConfig (Nuxt's is typed
// from the Nuxt module's options). Under nitropack 2 the generated auto-import declarations load
// this file through `mcp-h3/definitions`; under nitro 3 the config imports `mcpNitroModule`.
declare module "nitropack/types" {
  interface NitroConfig {
    /** mcp-h3's options: see {@link McpNitroModuleOptions}. */
    mcp?: McpNitroModuleOptions;
  }
}
// @ts-ignore -- nitro 3 is not installed in this repository, nor in a nitropack 2 app.
declare module "nitro/types" {
  interface NitroConfig {
    /** mcp-h3's options: see {@link McpNitroModuleOptions}. */
    mcp?: McpNitroModuleOptions;
  }
}
