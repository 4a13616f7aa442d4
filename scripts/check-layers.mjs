#!/usr/bin/env node
/**
 * The import ladder of src/ (CONTRIBUTING.md, "What each layer may import"): every import of a
 * library file points down to a lower layer or stays in its own folder. Run by `npm run lint`;
 * exits 1 and names each import that points up or sideways.
 *
 * Usage: node scripts/check-layers.mjs [src directory]
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The layers from the bottom up; a file may import its own layer's folder and anything below it. */
export const LADDER = [
  ["protocol"],
  ["types"],
  ["http"],
  ["define", "stores"],
  ["inspector"],
  ["stream"],
  ["context"],
  ["dispatch"],
  ["gate", "auth"],
  ["request"],
  ["legacy", "modern"],
  ["engine"],
  ["testing"],
  ["(entries)"],
];

/**
 * Folders that only the entries may import, whatever their rank: `_entries/` holds every entry but
 * `mcp-h3` itself (`index.ts`, with its adapters `h3.ts` and `fetch.ts`, at the top of src/, as h3
 * keeps its own); the Redis stores ship from
 * `mcp-h3/redis` alone, and the Durable Object stores with their Worker wiring (`stores/durable/`,
 * `cloudflare/`) from `mcp-h3/cloudflare` alone, so a server that does not import them does not carry them. Being part of
 * their entry, they import as the entries do (the Redis bus brings the session routing of
 * `legacy/bus/`, which nothing below the entries may import). `dev/` is the build and dev-server
 * side of the modules' live definitions (`mcp-h3/nitro` and its generated dev handler), Node only.
 */
const ENTRY_ONLY = ["_entries", "stores/redis", "stores/durable", "cloudflare", "dev"];

/**
 * Extensions, written as a stranger to the library would write them: their files import only the
 * public entries (`index.ts`: mcp-h3, `_entries/shared.ts`: mcp-h3/shared), the public types (`types/`) and
 * their own folder, and of the packages only `h3` (the peer). What they need of the core is a
 * public, documented capability of the seam (docs/guide/writing-an-extension.md), never an internal
 * module. They stand beside the entries, and only the entries import them (`OPTIONAL` below).
 */
export const EXTENSIONS = ["tasks/", "apps/", "skills/"];

/** What an extension may import of the library besides its own folder. */
const PUBLIC_ENTRIES = ["index.ts", "_entries/shared.ts"];
const PUBLIC_FOLDERS = ["types/"];
/**
 * The packages an extension may import: what a user's server has anyway, and a skill's YAML
 * frontmatter parser for the skills (a dependency of mcp-h3, carried only by `mcp-h3/skills`).
 */
const EXTENSION_PACKAGES = ["h3"];
const EXTENSION_OWN_PACKAGES = { "skills/": ["yaml"] };

/**
 * Optional parts, each a group of folders (ending in `/`) and files: on their rung for what they
 * import, but imported only by the entries (and entry-only folders) that bring them, and by the
 * other members of their group — the session routing between instances comes with
 * `mcp-h3/shared` and the Redis bus, so a server on the memory stores does not carry it; MCP Apps
 * (`apps/`, an extension) come with `mcp-h3/apps` alone; the task
 * stores come with `mcp-h3/tasks` and `mcp-h3/redis`, the task manager and wires (`tasks/`, an
 * extension) with `mcp-h3/tasks`; the inspector page's handler (`inspector/`) with `mcp-h3/inspector`; the test
 * client (`testing/`, a client of the server, not part of it) with `mcp-h3/testing`.
 */
const OPTIONAL = [
  ["testing/", "types/testing.ts"],
  ["legacy/bus/"],
  ["apps/"],
  ["inspector/"],
  [
    "tasks/",
    "stores/memory/tasks.ts",
    "stores/memory/task-expiry.ts",
    "stores/memory/task-owners.ts",
    "stores/task-change.ts",
    "stores/task-cursor.ts",
    "stores/task-listeners.ts",
  ],
];

/** Whether `file` is one of a group's files or inside one of its folders. */
const inGroup = (group, file) =>
  group.some((member) => (member.endsWith("/") ? file.startsWith(member) : file === member));

/** A file's layer: its first folder under src/, or `(entries)` for a file at the top, in an entry-only folder or in an extension. */
function layerOf(file) {
  const parts = file.split("/");
  if (parts.length === 1 || ENTRY_ONLY.some((folder) => file.startsWith(`${folder}/`))) return "(entries)";
  if (EXTENSIONS.some((folder) => file.startsWith(folder))) return "(entries)";
  return parts[0];
}

/** Why an extension's file may not import `to` (a path under src/), or undefined when it may. */
function extensionRefusal(extension, to) {
  if (to.startsWith(extension) || PUBLIC_ENTRIES.includes(to)) return undefined;
  if (PUBLIC_FOLDERS.some((folder) => to.startsWith(folder))) return undefined;
  return `${extension} is an extension: it imports only the public entries (${PUBLIC_ENTRIES.join(", ")}), ${PUBLIC_FOLDERS.join(", ")} and its own folder`;
}

const rankOf = new Map(LADDER.flatMap((names, rank) => names.map((name) => [name, rank])));

/** Every `import … from "./x"`, `export … from "./x"` and `import("./x")` with a relative path. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.\.?\/[^"']+)["']/gm;
/** The same with a package's name (`h3`, `node:fs`, `@scope/name/sub`). */
const PACKAGE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^."'][^"']*)["']/gm;

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** The imports that break the ladder, as `from -> to (reason)` lines. */
export function findViolations(srcDir) {
  const problems = [];
  for (const path of sourceFiles(srcDir)) {
    const from = relative(srcDir, path).replaceAll("\\", "/");
    const fromLayer = layerOf(from);
    const text = readFileSync(path, "utf8");
    const extension = EXTENSIONS.find((folder) => from.startsWith(folder));
    if (extension) {
      for (const match of text.matchAll(PACKAGE_SPECIFIER)) {
        if (EXTENSION_PACKAGES.includes(match[1]) || EXTENSION_OWN_PACKAGES[extension]?.includes(match[1])) continue;
        problems.push(
          `${from} -> ${match[1]} (${extension} is an extension: of the packages it imports only ${EXTENSION_PACKAGES.join(", ")})`,
        );
      }
    }
    for (const match of text.matchAll(SPECIFIER)) {
      const to = relative(srcDir, resolve(dirname(path), match[1])).replaceAll("\\", "/");
      if (to.startsWith("..")) continue;
      if (extension) {
        const refusal = extensionRefusal(extension, to);
        if (refusal) problems.push(`${from} -> ${to} (${refusal})`);
        continue;
      }
      const toLayer = layerOf(to);
      const entryOnly = ENTRY_ONLY.find((folder) => to.startsWith(`${folder}/`));
      if (entryOnly && fromLayer !== "(entries)" && !from.startsWith(`${entryOnly}/`)) {
        problems.push(`${from} -> ${to} (${entryOnly}/ is imported by the entries only)`);
        continue;
      }
      const optional = OPTIONAL.find((group) => inGroup(group, to));
      if (optional && fromLayer !== "(entries)" && !inGroup(optional, from)) {
        const part = optional.find((member) => (member.endsWith("/") ? to.startsWith(member) : to === member));
        problems.push(`${from} -> ${to} (${part} is an optional part: only the entries that bring it import it)`);
        continue;
      }
      if (toLayer === fromLayer) continue;
      const fromRank = rankOf.get(fromLayer);
      const toRank = rankOf.get(toLayer);
      if (fromRank === undefined) problems.push(`${from}: folder ${fromLayer}/ is on no rung of the ladder`);
      else if (toRank === undefined) problems.push(`${from} -> ${to}: folder ${toLayer}/ is on no rung of the ladder`);
      else if (toRank >= fromRank) {
        const how = toRank === fromRank ? "sideways" : "up";
        problems.push(`${from} -> ${to} (points ${how}: ${fromLayer}/ may not import ${toLayer}/)`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const srcDir = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "src"));
  const problems = findViolations(srcDir);
  for (const line of problems) console.error(`layers: ${line}`);
  if (problems.length > 0) {
    console.error(
      `layers: ${problems.length} import(s) break the ladder (CONTRIBUTING.md, "What each layer may import")`,
    );
    process.exit(1);
  }
}
