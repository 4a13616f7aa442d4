/**
 * The build side of definitions as files (`mcp-h3/nitro`, `mcp-h3/nuxt`): finds the files under
 * `mcp/{tools,resources,prompts,apps}/` of each scanned server folder (the default endpoint) and
 * under `mcp/handlers/<name>/{tools,…}/` (one more endpoint each), checks what can be checked
 * before bundling (a default export, of its folder's kind; no two files of one endpoint giving one
 * name), and writes the handler module that imports them. Node only: it runs in the build, never
 * in a server.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, extname, join, relative } from "node:path";
import type { McpFileKind } from "../types/files.ts";

/** The folders under `mcp/` and the kind each holds. */
export const FOLDERS: Record<string, McpFileKind> = {
  tools: "tool",
  resources: "resource",
  prompts: "prompt",
  apps: "app",
};
const DEFINE: Record<McpFileKind, string> = {
  tool: "defineMcpTool",
  resource: "defineMcpResource",
  prompt: "defineMcpPrompt",
  app: "defineMcpApp",
};
const EXTENSIONS = new Set([".ts", ".mts", ".js", ".mjs"]);
/** The code file of handler options, looked for in each `mcp/` folder and each handler's folder. */
export const CONFIG_NAMES = ["config.ts", "config.mts", "config.js", "config.mjs"];
/** The folder under `mcp/` whose subfolders are the app's other endpoints, one handler each. */
export const HANDLERS_FOLDER = "handlers";
/** A handler's folder name becomes a route segment and a server name: letters, digits, `-` and `_`. */
const HANDLER_NAME = /^[a-z0-9][a-z0-9_-]*$/i;

/** One definition file found. */
export interface FoundFile {
  kind: McpFileKind;
  /** The name from the file: its base name without the extension. */
  name: string;
  /** Absolute path, imported by the generated handler. */
  path: string;
  /** Path relative to the app's root, as messages name it. */
  label: string;
}

/** What the scan found: the definition files and the code file, if any. */
export interface FoundDefinitions {
  files: FoundFile[];
  config?: { path: string; label: string };
}

/**
 * The definition files of one endpoint, in a stable order: those under `<dir>/mcp/` of each folder
 * for the default endpoint, under `<dir>/mcp/handlers/<handler>/` for another. Throws an error
 * naming the file when one has no default export, exports a definition of another folder's kind,
 * or gives the same name as another file of its kind in the same endpoint.
 */
export function scanDefinitions(serverDirs: readonly string[], rootDir: string, handler?: string): FoundDefinitions {
  const found: FoundDefinitions = { files: [] };
  const base = endpointFolder(handler);
  for (const dir of serverDirs) {
    const mcpDir = join(dir, base);
    if (!isDirectory(mcpDir)) continue;
    const config = CONFIG_NAMES.map((name) => join(mcpDir, name)).find((path) => existsSync(path));
    if (config !== undefined && found.config === undefined)
      found.config = { path: config, label: relative(rootDir, config) };
    if (handler !== undefined) refuseIndexFile(mcpDir, rootDir);
    for (const [folder, kind] of Object.entries(FOLDERS)) {
      for (const path of listFiles(join(mcpDir, folder))) {
        found.files.push({ kind, name: basename(path, extname(path)), path, label: relative(rootDir, path) });
      }
    }
  }
  for (const file of found.files) checkSource(file, readFileSync(file.path, "utf8"), base);
  checkNames(found.files);
  return found;
}

/** The folder, relative to a server folder, of the default endpoint (`mcp`) or of the handler `handler`. */
export function endpointFolder(handler?: string): string {
  return handler === undefined ? "mcp" : `mcp/${HANDLERS_FOLDER}/${handler}`;
}

/**
 * The names of the app's other endpoints: the folders under `<dir>/mcp/handlers/`, sorted; throws
 * naming the folder when its name cannot be a route segment.
 */
export function scanHandlerNames(serverDirs: readonly string[], rootDir: string): string[] {
  const names = new Set<string>();
  for (const dir of serverDirs) {
    const handlersDir = join(dir, "mcp", HANDLERS_FOLDER);
    if (!isDirectory(handlersDir)) continue;
    for (const entry of readdirSync(handlersDir)) {
      if (!isDirectory(join(handlersDir, entry))) continue;
      if (!HANDLER_NAME.test(entry)) {
        throw new Error(
          `mcp-h3: ${relative(rootDir, join(handlersDir, entry))} cannot name an endpoint: a handler's folder name is letters, digits, "-" and "_"`,
        );
      }
      names.add(entry);
    }
  }
  return [...names].sort();
}

/**
 * A handler folder's `index.ts` is what another toolkit reads (its `defineMcpHandler`); here it
 * would be ignored without a word, so the build stops and says where the options go.
 */
function refuseIndexFile(handlerDir: string, rootDir: string): void {
  const index = ["index.ts", "index.mts", "index.js", "index.mjs"]
    .map((name) => join(handlerDir, name))
    .find((path) => existsSync(path));
  if (index === undefined) return;
  throw new Error(
    `mcp-h3: ${relative(rootDir, index)} is not read: a handler's code options go in config.ts beside it (default-export defineMcpConfig(...)), its plain options under the config key's handlers`,
  );
}

/** The definition files of one folder, recursively (subfolders only group files), sorted. */
function listFiles(dir: string): string[] {
  if (!isDirectory(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((entry) => EXTENSIONS.has(extname(entry)) && !entry.endsWith(".d.ts") && !entry.endsWith(".d.mts"))
    .map((entry) => join(dir, entry))
    .filter((path) => statSync(path).isFile())
    .sort();
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** What can be seen in the source before bundling: a default export, and which `defineMcp…` makes it. */
function checkSource(file: FoundFile, source: string, base: string): void {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
  if (!/\bexport\s+default\b/.test(code) && !/\bas\s+default\b/.test(code)) {
    throw new Error(`mcp-h3: ${file.label} has no default export: it must default-export ${DEFINE[file.kind]}(...)`);
  }
  const made = /\bexport\s+default\s+(defineMcp(?:Tool|Resource|Prompt|App))\s*[(<]/.exec(code)?.[1];
  if (made !== undefined && made !== DEFINE[file.kind]) {
    throw new Error(
      `mcp-h3: ${file.label} default-exports ${made}(...), but a file under ${base}/${folderOf(file.kind)}/ must default-export ${DEFINE[file.kind]}(...)`,
    );
  }
}

function folderOf(kind: McpFileKind): string {
  return Object.keys(FOLDERS).find((folder) => FOLDERS[folder] === kind)!;
}

/**
 * Two files of one kind with one base name give one name, unless a definition names itself (which
 * the generated handler checks again when it starts). Tools and apps share the names of tools.
 */
function checkNames(files: readonly FoundFile[]): void {
  const seen = new Map<string, FoundFile>();
  for (const file of files) {
    if (file.kind === "resource") continue; // resources are told apart by their URI, checked at start
    const key = `${file.kind === "app" ? "tool" : file.kind} ${file.name}`;
    const other = seen.get(key);
    if (other !== undefined && !namesItself(other) && !namesItself(file)) {
      throw new Error(
        `mcp-h3: ${other.label} and ${file.label} both give the ${key.replace(" ", ' "')}": rename one file, or give one definition a name`,
      );
    }
    seen.set(key, file);
  }
}

function namesItself(file: FoundFile): boolean {
  return /\bname\s*:/.test(readFileSync(file.path, "utf8"));
}

/** Code the handler module carries besides the files: its imports, and an extension it serves (the skills of `mcp/skills/`). */
export interface ModuleExtras {
  imports: readonly string[];
  /** An expression whose value is an `McpExtension`. */
  extension?: string;
}

/**
 * The handler module: imports the files and hands them, with the plain options and the extras'
 * extension, to `defineMcpFileHandler`.
 */
export function handlerModule(
  found: FoundDefinitions,
  options: Record<string, unknown>,
  extras: ModuleExtras = { imports: [] },
): string {
  const lines = ['import { defineMcpFileHandler } from "mcp-h3/definitions";', ...extras.imports];
  if (found.files.some((file) => file.kind === "app")) lines.push('import { defineMcpApp } from "mcp-h3/apps";');
  if (found.config !== undefined) lines.push(`import config from ${JSON.stringify(found.config.path)};`);
  found.files.forEach((file, index) => lines.push(`import file${index} from ${JSON.stringify(file.path)};`));
  const files = found.files.map(
    (file, index) =>
      `  { kind: ${JSON.stringify(file.kind)}, name: ${JSON.stringify(file.name)}, file: ${JSON.stringify(file.label)}, definition: file${index} },`,
  );
  lines.push(
    "export default defineMcpFileHandler({",
    ` options: ${JSON.stringify(options)},`,
    found.config === undefined ? "" : " config,",
    found.files.some((file) => file.kind === "app") ? " compileApp: defineMcpApp," : "",
    extras.extension === undefined ? "" : ` extensions: [${extras.extension}],`,
    " files: [",
    ...files,
    " ],",
    "});",
  );
  return lines.filter((line) => line !== "").join("\n") + "\n";
}

/** What the definition files may use without an import, from `mcp-h3/definitions`. */
export const AUTO_IMPORTS = [
  "defineMcpTool",
  "defineMcpResource",
  "defineMcpPrompt",
  "defineMcpApp",
  "defineMcpConfig",
];

/**
 * A bundler plugin (Rollup and Rolldown alike) that imports the `defineMcp…` a definition file
 * uses (under `<dir>/mcp/`) and does not import itself: nitro 3 has no auto-imports, and nothing
 * else of the app is touched.
 */
export function definitionImports(dirs: readonly string[]): {
  name: string;
  transform(code: string, id: string): { code: string; map: null } | undefined;
} {
  const roots = dirs.map((dir) => join(dir, "mcp") + "/");
  return {
    name: "mcp-h3:definition-imports",
    transform(code, id) {
      const path = id.split("?")[0]!;
      if (!roots.some((root) => path.startsWith(root)) || !EXTENSIONS.has(extname(path))) return undefined;
      const used = AUTO_IMPORTS.filter(
        (name) =>
          new RegExp(`\\b${name}\\s*[(<]`).test(code) &&
          !new RegExp(`\\bimport\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\b`).test(code),
      );
      if (used.length === 0) return undefined;
      return { code: `import { ${used.join(", ")} } from "mcp-h3/definitions";\n${code}`, map: null };
    },
  };
}
