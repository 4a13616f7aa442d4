/**
 * The skills one handler serves, indexed once when the extension is plugged in: by the URI of
 * their `SKILL.md`, their manifests (each file with its digest and size, nested skills' files
 * included, computed once from the very bytes `resources/read` serves), and the directories of the
 * skill namespace with their direct children.
 */
import type { JsonObject } from "../index.ts";
import type { SkillDefinition, SkillFile } from "../types/skills.ts";
import { sha256Digest } from "./digest.ts";

/** Per skill, what SEP-2640 lets every host accept: 512 files, 16 MiB. */
export const MAX_FILES_PER_SKILL = 512;
export const MAX_BYTES_PER_SKILL = 16 * 1024 * 1024;

/** A child of a directory: a file, or a directory below it. */
export type DirectoryChild =
  { readonly kind: "file"; readonly file: SkillFile } | { readonly kind: "directory"; readonly uri: string };

/** One directory of the namespace: its direct children by name, and every file below it. */
export interface SkillDirectory {
  readonly children: Map<string, DirectoryChild>;
  readonly filesBelow: SkillFile[];
}

export class SkillSet {
  /** Every skill served, listed or not, in the order given. */
  readonly skills: readonly SkillDefinition[];
  readonly #byUri = new Map<string, SkillDefinition>();
  readonly #directories = new Map<string, SkillDirectory>();
  /** The files of each skill's manifest: its own and its nested skills'. */
  readonly #manifestFiles = new Map<SkillDefinition, SkillFile[]>();
  readonly #digests = new Map<SkillFile, Promise<string>>();

  /** Indexes `skills`; throws when two serve the same file, and `warn`s for one past the limits. */
  constructor(skills: readonly SkillDefinition[], warn: (message: string) => void) {
    this.skills = skills;
    const files = new Map<string, SkillFile>();
    for (const skill of skills) {
      if (skill?.kind !== "skill") throw new TypeError("mcp-h3: skills() takes what defineSkill returns");
      this.#byUri.set(skill.uri, skill);
      for (const file of skill.files) {
        if (files.has(file.uri))
          throw new Error(`mcp-h3: two skills serve ${file.uri}; each file belongs to one skill`);
        files.set(file.uri, file);
        this.#addToDirectories(file);
      }
    }
    for (const skill of skills) {
      const below = this.#directories.get(skill.directory)!.filesBelow;
      this.#manifestFiles.set(skill, below);
      const bytes = below.reduce((sum, file) => sum + (file.bytes?.byteLength ?? 0), 0);
      if (below.length > MAX_FILES_PER_SKILL || bytes > MAX_BYTES_PER_SKILL) {
        warn(
          `mcp-h3: skill ${skill.uri} has ${below.length} files and ${bytes} bytes; SEP-2640 hosts need accept only ${MAX_FILES_PER_SKILL} files and ${MAX_BYTES_PER_SKILL} bytes`,
        );
      }
    }
  }

  /** The skill whose `SKILL.md` is at `uri`, listed or not. */
  skillAt(uri: string): SkillDefinition | undefined {
    return this.#byUri.get(uri);
  }

  /** The directory at `uri` (no trailing slash), undefined when none of the skills' files is below it. */
  directoryAt(uri: string): SkillDirectory | undefined {
    return this.#directories.get(uri);
  }

  /**
   * A skill's entry for `skills/list` and `skills/get`: its URI, frontmatter and manifest, or
   * `"dynamic"` when one of its files is made per read.
   */
  async entryOf(skill: SkillDefinition): Promise<JsonObject> {
    const files = this.#manifestFiles.get(skill)!;
    if (files.some((file) => file.bytes === undefined)) {
      return { uri: skill.uri, frontmatter: skill.frontmatter, resources: "dynamic" };
    }
    const digests = await Promise.all(files.map((file) => this.#digestOf(file)));
    const resources = files.map((file, index) => ({
      uri: file.uri,
      digest: digests[index]!,
      size: file.bytes!.byteLength,
    }));
    return { uri: skill.uri, frontmatter: skill.frontmatter, resources };
  }

  #digestOf(file: SkillFile): Promise<string> {
    let digest = this.#digests.get(file);
    if (!digest) this.#digests.set(file, (digest = sha256Digest(file.bytes!)));
    return digest;
  }

  /** Adds `file` below every directory of its URI, from the authority down, and as a child of its own. */
  #addToDirectories(file: SkillFile): void {
    const scheme = file.uri.indexOf("://") + 3;
    let end = file.uri.indexOf("/", scheme);
    let child: DirectoryChild = { kind: "file", file };
    const path: string[] = [];
    while (end !== -1) {
      path.push(file.uri.slice(0, end));
      end = file.uri.indexOf("/", end + 1);
    }
    // path: the directories of the file from the authority down; each holds the next (or the file).
    for (let index = path.length - 1; index >= 0; index--) {
      const uri = path[index]!;
      let directory = this.#directories.get(uri);
      if (!directory) this.#directories.set(uri, (directory = { children: new Map(), filesBelow: [] }));
      const name = (index === path.length - 1 ? file.uri : path[index + 1]!).slice(uri.length + 1);
      const existing = directory.children.get(name);
      if (existing === undefined) directory.children.set(name, child);
      else if (existing.kind !== child.kind)
        throw new Error(`mcp-h3: ${uri}/${name} is both a skill file and a directory`);
      directory.filesBelow.push(file);
      child = { kind: "directory", uri };
    }
  }
}
