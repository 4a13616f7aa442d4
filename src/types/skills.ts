/** Public shapes of the skills extension (`mcp-h3/skills`, SEP-2640): skills, their files, its options. */
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { CacheHints } from "./cache-hints.ts";
import type { McpEvent } from "./context.ts";
import type { AccessOptions, ResourceDefinition } from "./definitions.ts";

/** The content of one supporting file: text (served as text) or bytes (served as a blob unless they are text). */
export type SkillFileContent = string | Uint8Array;

/**
 * One supporting file of a skill: its content as it is, or a function that makes it on each read
 * (the skill's files are then `"dynamic"`: no digests can be published for them).
 */
export type SkillFileSource =
  | SkillFileContent
  | {
      /** The file's content, fixed. */
      content: SkillFileContent;
      /** Its type; by default guessed from its extension (`.md` is `text/markdown`). */
      mimeType?: string;
    }
  | {
      /** Makes the file's content for one read. */
      read: (event: McpEvent) => SkillFileContent | Promise<SkillFileContent>;
      mimeType?: string;
    };

/** Options of `defineSkill`. */
export interface SkillOptions extends AccessOptions {
  /**
   * The skill's `SKILL.md`: YAML frontmatter between `---` lines, with at least `name` and
   * `description` (the Agent Skills format), then the instructions. Served byte for byte.
   */
  markdown: string;
  /**
   * Where the skill sits in the server's skill namespace, `/`-separated, ending in its `name`
   * (`acme/billing/refunds`); by default its `name` alone. Its `SKILL.md` is `skill://<path>/SKILL.md`.
   */
  path?: string;
  /** Its supporting files by their path in the skill (`references/FORMS.md`, `scripts/extract.py`). */
  files?: Record<string, SkillFileSource>;
  /**
   * `false`: served by its URI (`skills/get`, `resources/read`, directory reads) but left out of
   * `skills/list` and `resources/list`. Default `true`.
   */
  listed?: boolean;
}

/** One file of a defined skill. */
export interface SkillFile {
  /** Its resource URI, `skill://<skill path>/<path>`. */
  readonly uri: string;
  /** Its path in the skill, `SKILL.md` for the skill's own. */
  readonly path: string;
  readonly mimeType: string;
  /** Its bytes when they are fixed (digest and size come from them); undefined when made per read. */
  readonly bytes: Uint8Array | undefined;
  /** Makes the content of a dynamic file for one read. */
  readonly read: ((event: McpEvent) => SkillFileContent | Promise<SkillFileContent>) | undefined;
}

/** A skill as `defineSkill` returns it: give it to `skills([...])`. */
export interface SkillDefinition {
  readonly kind: "skill";
  /** The URI of its `SKILL.md`, its identity on this server. */
  readonly uri: string;
  /** Its root directory, `skill://<path>` (no trailing slash). */
  readonly directory: string;
  /** Its `name`, the last segment of its path. */
  readonly name: string;
  /** Its `SKILL.md` frontmatter as written, parsed once. */
  readonly frontmatter: JsonObject;
  readonly listed: boolean;
  /** `SKILL.md` first, then the supporting files in the order given. */
  readonly files: readonly SkillFile[];
  /** The resources that serve its files (same order), under its `scopes`, `enabled` and `listed`. */
  readonly resources: readonly ResourceDefinition[];
}

/** Options of the `skills()` extension. */
export interface SkillsOptions {
  /** Serve `resources/directory/read` (declared as `directoryRead: true`). Default `true`. */
  directoryRead?: boolean;
  /** Entries per page of `skills/list` and of a directory read. Default 100. */
  pageSize?: number;
  /** Modern cache hints of `skills/list` and `skills/get` results; default `0` / `"private"`. */
  cacheHints?: CacheHints;
}
