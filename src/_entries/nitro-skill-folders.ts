/**
 * Skills as folders (`mcp-h3/nitro`, `mcp-h3/nuxt`): every folder under `mcp/skills/` that holds a
 * `SKILL.md` is a skill, its path below `mcp/skills/` the skill's path, and every other file in it
 * a supporting file (subfolders included, except a subfolder with a `SKILL.md` of its own: a nested
 * skill). Read here, at build time (or on each dev reload), and checked by `defineSkill` itself, so
 * that a broken `SKILL.md` stops the build naming the file. Node only: the generated handler
 * carries the bytes, so a server on the edge needs no filesystem.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { defineSkill } from "../skills/define-skill.ts";
import { MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL } from "../skills/skill-set.ts";
import type { SkillDefinition, SkillsOptions } from "../types/skills.ts";
import { endpointFolder } from "./nitro-files.ts";

/** The folder under an endpoint's `mcp/` folder whose `SKILL.md` folders are its skills. */
export const SKILLS_FOLDER = "skills";

/** One skill folder found, read and checked. */
export interface FoundSkill {
  /** Its path in the skill namespace (`acme/billing/refunds`): its folder below `mcp/skills/`. */
  path: string;
  /** Its `SKILL.md` relative to the app's root, as messages name it. */
  label: string;
  /** The `SKILL.md` text. */
  markdown: string;
  /** Its supporting files' bytes, by their `/`-separated path in the skill, sorted. */
  files: Record<string, Uint8Array>;
  /** What `defineSkill` made of it (the check; the dev handler serves it as is). */
  definition: SkillDefinition;
}

// fatal: a SKILL.md that is not UTF-8 is refused rather than served with replacement characters;
// ignoreBOM: a leading BOM is seen (and dropped below).
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The skills of one endpoint (`mcp/skills/` for the default one, `mcp/handlers/<name>/skills/`
 * for another) in every server folder, sorted by path. Dotfiles and dot-folders are left out; a
 * symbolic link is followed only to a file inside its own skill's folder (`warn` says which are
 * not). Throws naming the file for a `SKILL.md` `defineSkill` refuses, a file name that is no
 * plain path segment, a skill past 16 MiB (nothing more of it is read), or one path in two folders.
 */
export function scanSkillFolders(
  serverDirs: readonly string[],
  rootDir: string,
  options: { handler?: string; warn?: (message: string) => void } = {},
): FoundSkill[] {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const found = new Map<string, FoundSkill>();
  for (const dir of serverDirs) {
    const root = join(dir, endpointFolder(options.handler), SKILLS_FOLDER);
    if (!isRealDirectory(root)) {
      if (isLink(root)) warn(`mcp-h3: ${relative(rootDir, root)} is a link: not followed, no skill of it is served`);
      continue;
    }
    if (existsSync(join(root, "SKILL.md"))) {
      const label = relative(rootDir, join(root, "SKILL.md"));
      throw new Error(
        `mcp-h3: ${label}: a skill is a folder below ${SKILLS_FOLDER}/ (${SKILLS_FOLDER}/<name>/SKILL.md)`,
      );
    }
    for (const folder of skillFolders(root)) {
      const skill = readSkill(root, folder, { rootDir, warn });
      const other = found.get(skill.path);
      if (other !== undefined)
        throw new Error(`mcp-h3: ${other.label} and ${skill.label} are both the skill ${skill.path}`);
      found.set(skill.path, skill);
    }
  }
  return [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Whether `path` is a directory itself (not a link to one). */
function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Every folder below `root` (links not followed, dot-folders left out) that holds a `SKILL.md`. */
function skillFolders(root: string): string[] {
  const folders: string[] = [];
  const visit = (folder: string): void => {
    const entries = readdirSync(folder, { withFileTypes: true });
    if (folder !== root && entries.some((entry) => entry.name === "SKILL.md" && !entry.isDirectory())) {
      folders.push(folder);
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith(".")) visit(join(folder, entry.name));
    }
  };
  visit(root);
  return folders;
}

/** Reads and checks the skill of `folder`, its supporting files within 16 MiB in all. */
function readSkill(
  root: string,
  folder: string,
  context: { rootDir: string; warn: (message: string) => void },
): FoundSkill {
  const path = relative(root, folder).split(sep).join("/");
  const skillFile = join(folder, "SKILL.md");
  const label = relative(context.rootDir, skillFile);
  const realFolder = realpathSync(folder);
  let total = 0;
  const read = (file: string): Uint8Array => {
    const size = statSync(file).size;
    total += size;
    // Checked by the size before the bytes are read: a huge file is never held in memory.
    if (total > MAX_BYTES_PER_SKILL) {
      throw new Error(
        `mcp-h3: ${label}: the skill's files pass ${MAX_BYTES_PER_SKILL} bytes (16 MiB, SEP-2640's limit) at ${relative(context.rootDir, file)}; the skill is not served`,
      );
    }
    return new Uint8Array(readFileSync(file));
  };
  // A SKILL.md that is a link is read only when it leads to a file inside the folder.
  const skillReal = lstatSync(skillFile).isSymbolicLink() ? linkTarget(skillFile, realFolder) : skillFile;
  if (skillReal === undefined)
    throw new Error(`mcp-h3: ${label} is a link to something other than a file inside its folder`);
  let markdown: string;
  try {
    // A leading BOM (some editors write one) is dropped: a host reads the frontmatter only when
    // the file begins with `---` (the ext-skills client refuses it otherwise, as a digest mismatch).
    markdown = utf8.decode(read(skillReal)).replace(/^\uFEFF/, "");
  } catch (error) {
    if (error instanceof TypeError) throw new Error(`mcp-h3: ${label}: SKILL.md must be UTF-8 text`);
    throw error;
  }
  const files: Record<string, Uint8Array> = {};
  for (const file of supportingFiles(folder, realFolder, context)) {
    files[relative(folder, file).split(sep).join("/")] = read(file);
  }
  const count = Object.keys(files).length + 1;
  if (count > MAX_FILES_PER_SKILL) {
    // Served all the same, as skills() serves it (and warns again when the server starts).
    context.warn(
      `mcp-h3: ${label}: the skill has ${count} files; SEP-2640 hosts need accept only ${MAX_FILES_PER_SKILL}`,
    );
  }
  try {
    return { path, label, markdown, files, definition: defineSkill({ path, markdown, files }) };
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^mcp-h3: /, "") : String(error);
    throw new Error(`mcp-h3: ${label}: ${message}`, { cause: error });
  }
}

/**
 * The files of a skill's folder but its `SKILL.md`, sorted: subfolders included, except a nested
 * skill's folder, dotfiles and dot-folders; a link only when it leads to a file inside the folder.
 */
function supportingFiles(
  folder: string,
  realFolder: string,
  context: { rootDir: string; warn: (message: string) => void },
): string[] {
  const files: string[] = [];
  const visit = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const path = join(current, entry.name);
      if (current === folder && entry.name === "SKILL.md") continue;
      if (entry.isDirectory()) {
        // A subfolder with its own SKILL.md is a nested skill, served as one of its own.
        const nested = readdirSync(path, { withFileTypes: true }).some((child) => child.name === "SKILL.md");
        if (!nested) visit(path);
      } else if (entry.isFile()) {
        files.push(path);
      } else if (entry.isSymbolicLink()) {
        const target = linkTarget(path, realFolder);
        if (target === undefined) {
          context.warn(
            `mcp-h3: ${relative(context.rootDir, path)} is a link to something other than a file inside its skill's folder: not served`,
          );
        } else files.push(path);
      }
    }
  };
  visit(folder);
  return files.sort();
}

/** The real path of the link at `path` when it is a file inside `realFolder`, else undefined. */
function linkTarget(path: string, realFolder: string): string | undefined {
  try {
    const real = realpathSync(path);
    return real.startsWith(realFolder + sep) && statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined; // a dangling link
  }
}

/**
 * What the generated handler module writes for `skills`: the import of `mcp-h3/skills` (only when
 * there are skills, so a server without them does not carry it) and the `skills([...], options)` extension,
 * each file's bytes as base64 decoded when the server starts (no filesystem needed there).
 */
export function skillsModuleCode(
  skills: readonly FoundSkill[],
  options?: SkillsOptions,
): { imports: string[]; extension?: string } {
  if (skills.length === 0) return { imports: [] };
  const imports = [
    'import { defineSkill, skills } from "mcp-h3/skills";',
    "const skillBytes = (base64) => Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));",
  ];
  const definitions = skills.map((skill) => {
    const files = Object.entries(skill.files).map(
      ([path, bytes]) =>
        `${JSON.stringify(path)}: skillBytes(${JSON.stringify(Buffer.from(bytes).toString("base64"))})`,
    );
    return `    defineSkill({ path: ${JSON.stringify(skill.path)}, markdown: ${JSON.stringify(skill.markdown)}, files: { ${files.join(", ")} } }),`;
  });
  const given = options === undefined ? "" : `, ${JSON.stringify(options)}`;
  return { imports, extension: ["skills([", ...definitions, `  ]${given})`].join("\n") };
}
