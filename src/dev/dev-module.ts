/**
 * The build side of live definitions: under `nitro dev` / `nuxi dev` the modules write this handler
 * module instead of the one that imports the files. It imports none of them (so an edit never
 * reaches Nitro's bundle watcher, which would restart the server worker), only the code file
 * `mcp/config.ts`, the framework's runtime modules the files may import, and the dev handler.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { AUTO_IMPORTS, CONFIG_NAMES, endpointFolder } from "../_entries/nitro-files.ts";

/** What the dev module is written from. */
export interface DevModuleInput {
  /** The server folders whose `mcp/` holds the files. */
  dirs: readonly string[];
  rootDir: string;
  /** The framework's build folder: the loader's shim files go there. */
  buildDir: string;
  /** The plain options of the endpoint, from the config key. */
  options: Record<string, unknown>;
  /** The endpoint's folder under `mcp/handlers/`; none for the default endpoint (`mcp/`). */
  handler?: string;
  /** The framework auto-imports (`#imports`: Nuxt, nitropack 2); else nitro 3's runtime modules are lent. */
  autoImports: boolean;
  /** How long one file's evaluation may take before its load is given up (ms): `devLoadTimeoutMs`. */
  loadTimeoutMs: number;
}

/** nitro 3's runtime modules a definition file may import, lent from the dev bundle. */
const NITRO3_MODULES = [
  "nitro/app",
  "nitro/cache",
  "nitro/context",
  "nitro/database",
  "nitro/runtime-config",
  "nitro/storage",
  "nitro/task",
];

/**
 * jiti's ESM entry: the app's own, else the one its framework depends on (Nuxt and nitropack 2
 * do; nitro 3 bundles its own, so a nitro 3 app installs jiti to get live definitions).
 */
export function resolveJiti(rootDir: string): string | undefined {
  const fromRoot = createRequire(join(rootDir, "package.json"));
  for (const base of [undefined, "nuxt", "nitropack", "nitro"]) {
    try {
      const from = base === undefined ? fromRoot : createRequire(fromRoot.resolve(`${base}/package.json`));
      return join(dirname(from.resolve("jiti/package.json")), "lib/jiti.mjs");
    } catch {
      // Not there: the next place.
    }
  }
  return undefined;
}

/** The installed mcp-h3's dev handler (dist/nitro-dev.mjs), imported by its path: it is no public entry. */
export function devEntryPath(): string {
  const manifest = createRequire(import.meta.url).resolve("mcp-h3/package.json");
  return join(dirname(manifest), "dist/nitro-dev.mjs");
}

/** The endpoint's code file (`mcp/config.ts`, `mcp/handlers/<name>/config.ts`) in the first server folder that has one. */
function findConfig(dirs: readonly string[], handler: string | undefined): string | undefined {
  for (const dir of dirs) {
    const folder = join(dir, endpointFolder(handler));
    const found = CONFIG_NAMES.map((name) => join(folder, name)).find((path) => existsSync(path));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The dev handler module, given where jiti is. */
export function devHandlerModule(input: DevModuleInput, jiti: string): string {
  const config = findConfig(input.dirs, input.handler);
  const modules = input.autoImports ? ["#imports", "nitropack/runtime"] : NITRO3_MODULES;
  const lines = [
    `import { defineMcpDevFileHandler } from ${JSON.stringify(devEntryPath())};`,
    'import { defineMcpApp } from "mcp-h3/apps";',
    ...modules.map((id, index) => `import * as runtime${index} from ${JSON.stringify(id)};`),
    config === undefined ? "" : `import config from ${JSON.stringify(config)};`,
    "export default defineMcpDevFileHandler({",
    `  options: ${JSON.stringify(input.options)},`,
    config === undefined ? "" : "  config,",
    "  compileApp: defineMcpApp,",
    `  dirs: ${JSON.stringify(input.dirs)},`,
    input.handler === undefined ? "" : `  handler: ${JSON.stringify(input.handler)},`,
    `  rootDir: ${JSON.stringify(input.rootDir)},`,
    `  loadTimeoutMs: ${input.loadTimeoutMs},`,
    `  jiti: ${JSON.stringify(jiti)},`,
    `  shimDir: ${JSON.stringify(join(input.buildDir, "mcp-h3-dev"))},`,
    `  modules: () => ({ ${modules.map((id, index) => `${JSON.stringify(id)}: runtime${index}`).join(", ")} }),`,
    // `defineMcpTool` and kin from their entry first: nitropack 2's `#imports` module lacks them.
    `  autoImports: { "mcp-h3/definitions": ${JSON.stringify(AUTO_IMPORTS)}${input.autoImports ? ', "#imports": "*"' : ""} },`,
    // runtime1 is nitropack/runtime, runtime0 nitro 3's nitro/app (the order of `modules`).
    input.autoImports
      ? '  onFrameworkClose: (close) => runtime1.useNitroApp().hooks.hook("close", close),'
      : '  onFrameworkClose: (close) => runtime0.useNitroHooks().hook("close", close),',
    "});",
  ];
  return lines.filter((line) => line !== "").join("\n") + "\n";
}

/** The part of Nitro's options the dev module reads. */
interface DevNitroOptions {
  dev?: boolean;
  rootDir: string;
  buildDir?: string;
  imports?: unknown;
}

/**
 * Under `nitro dev` / `nuxi dev`, the writer of the dev handler module; undefined in a build, and
 * in dev when no jiti can be found (said once: the files are then bundled, and a change restarts
 * the server worker as before).
 */
export function liveHandlerModule(
  nitro: DevNitroOptions,
  dirs: readonly string[],
  options: Record<string, unknown>,
  live: { handler?: string; loadTimeoutMs: number },
): (() => string) | undefined {
  if (nitro.dev !== true) return undefined;
  const jiti = resolveJiti(nitro.rootDir);
  if (jiti === undefined) {
    console.warn(
      "mcp-h3: definition files are not live in dev: jiti was not found (install it in the app: npm i -D jiti); a change restarts the server instead",
    );
    return undefined;
  }
  const input: DevModuleInput = {
    dirs,
    rootDir: nitro.rootDir,
    buildDir: nitro.buildDir ?? join(nitro.rootDir, ".nitro"),
    options,
    handler: live.handler,
    loadTimeoutMs: live.loadTimeoutMs,
    autoImports: nitro.imports !== undefined && nitro.imports !== false,
  };
  return () => devHandlerModule(input, jiti);
}
