/**
 * Loading one definition file in the running dev server, outside the dev bundle: the file is read
 * from disk and run through jiti (TypeScript, ESM) so that its edits never reach Nitro's bundle
 * watcher, which would replace the server worker and drop every open stream and session.
 *
 * What the bundle gives a file for free is given here too: the names the framework auto-imports
 * (`defineMcpTool` and kin, and in Nuxt and nitropack 2 everything of `#imports`) are imported
 * into the file when it calls them without importing them, and the framework's runtime modules
 * (`nitropack/runtime`, `#imports`, `nitro/storage`, …) resolve to the instances the dev bundle
 * runs, through small shim files, so that `useStorage()` in a file is the server's storage.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Where the dev bundle's module namespaces wait for the shims (one worker, one table). */
export const RUNTIME_MODULES_KEY = Symbol.for("mcp-h3.dev.runtime-modules");

/** What a loader needs: where jiti is, and what the bundle lends the files. */
export interface FileLoaderOptions {
  /** Absolute path of jiti's ESM entry, resolved at build time from the app or its framework. */
  jiti: string;
  /** The app's root: jiti's base for resolving packages. */
  rootDir: string;
  /** Folder for the shim files (in the framework's build folder, which nothing watches). */
  shimDir: string;
  /**
   * The framework's runtime modules, by the id a file imports them with, as the dev bundle has them:
   * read when the loader is made, after the bundle has run (a namespace of a module that imports the
   * handler, like `nitro/app`, is not there yet while the handler module runs).
   */
  modules(): Record<string, object | undefined>;
  /** Names a file may call without importing them, by the module id they come from; `"*"`: every name of that module in `modules`. */
  autoImports: Record<string, readonly string[] | "*">;
}

interface JitiLike {
  evalModule(
    source: string,
    options: { id: string; filename: string; async: boolean; forceTranspile: boolean },
  ): unknown;
}

/** Loads definition files; `load` evaluates a file afresh each time (no module cache). */
export interface FileLoader {
  /** The file's default export, freshly evaluated. */
  load(path: string): Promise<unknown>;
}

/** Creates the loader: imports jiti and writes the shims once. */
export async function createFileLoader(options: FileLoaderOptions): Promise<FileLoader> {
  const table = ((globalThis as Record<symbol, unknown>)[RUNTIME_MODULES_KEY] ??= {}) as Record<string, object>;
  mkdirSync(options.shimDir, { recursive: true });
  const alias: Record<string, string> = {};
  Object.entries(options.modules()).forEach(([id, namespace], index) => {
    if (namespace === undefined) return;
    table[id] = namespace;
    const shim = join(options.shimDir, `runtime-${index}.mjs`);
    writeFileSync(shim, shimSource(id, namespace));
    alias[id] = shim;
  });
  const autoImports = Object.fromEntries(
    Object.entries(options.autoImports).map(([from, names]) => [
      from,
      names === "*" ? Object.keys(table[from] ?? {}) : names,
    ]),
  );
  const { createJiti } = (await import(pathToFileURL(options.jiti).href)) as {
    createJiti(id: string, options: object): JitiLike;
  };
  // No module cache, no file cache: every reload sees the files as they are now.
  const jiti = createJiti(join(options.rootDir, "package.json"), {
    moduleCache: false,
    fsCache: false,
    interopDefault: false,
    alias,
  });
  return {
    async load(path) {
      const source = withAutoImports(readFileSync(path, "utf8"), autoImports);
      const exports = (await jiti.evalModule(source, {
        id: path,
        filename: path,
        async: true,
        // Else jiti hands a `.mjs` or `.js` file to Node's own import, which caches it: its edits would never show.
        forceTranspile: true,
      })) as { default?: unknown } | undefined;
      return exports?.default;
    },
  };
}

/**
 * A module that re-exports, by name, what the dev bundle has of `id`: named exports that a native
 * import can see (a CommonJS shim's would be hidden from the ESM importer).
 */
function shimSource(id: string, namespace: object): string {
  const names = Object.keys(namespace).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
  const lines = [
    `const m = globalThis[Symbol.for(${JSON.stringify(RUNTIME_MODULES_KEY.description)})][${JSON.stringify(id)}];`,
    // One binding per name, exported under the name: `export { v0 as default }` is valid where `export const default` is not.
    ...names.map((name, index) => `const v${index} = m[${JSON.stringify(name)}];`),
    `export { ${names.map((name, index) => `v${index} as ${name}`).join(", ")} };`,
  ];
  return lines.join("\n") + "\n";
}

/**
 * The source with an import line for each auto-imported name it calls (`name(` or `name<`) but
 * neither imports nor declares: what the framework's auto-import transform would add in the bundle.
 * A name listed under two modules is imported from the first.
 */
export function withAutoImports(source: string, autoImports: Record<string, readonly string[]>): string {
  const lines: string[] = [];
  const taken = new Set<string>();
  for (const [from, names] of Object.entries(autoImports)) {
    const used = names.filter((name) => {
      if (taken.has(name) || !/^[A-Za-z_$][\w$]*$/.test(name)) return false;
      const id = name.replace(/\$/g, "\\$");
      return (
        new RegExp(`(?<![.\\w$])${id}\\s*[(<]`).test(source) &&
        !new RegExp(`\\bimport\\s*(?:type\\s*)?\\{[^}]*(?<![\\w$])${id}(?![\\w$])[^}]*\\}`).test(source) &&
        !new RegExp(`\\b(?:const|let|var|function|class)\\s+${id}(?![\\w$])`).test(source)
      );
    });
    for (const name of used) taken.add(name);
    if (used.length > 0) lines.push(`import { ${used.join(", ")} } from ${JSON.stringify(from)};`);
  }
  // On the file's first line, so that the line numbers of its errors stay its own.
  return lines.length === 0 ? source : `${lines.join(" ")} ${source}`;
}
