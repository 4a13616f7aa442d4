/** `defineSkill()`: one skill (its `SKILL.md` and supporting files), checked and indexed once. */
import { defineResource, type McpEvent, type ResourceDefinition } from "../index.ts";
import { bytesOf, guessMimeType, servedContent } from "./file-types.ts";
import { parseFrontmatter } from "./frontmatter.ts";
import { checkFilePath, skillNameProblem, skillPathSegments } from "./names.ts";
import type { SkillDefinition, SkillFile, SkillFileSource, SkillOptions } from "../types/skills.ts";

/**
 * Defines a skill (SEP-2640, Agent Skills): its `SKILL.md` (frontmatter with `name` and
 * `description`, then instructions) and supporting files, served at `skill://<path>/<file>` by the
 * `skills()` extension. The frontmatter, the name rules and the path (ending in the name) are
 * checked here; a file given as a function makes the skill's files `"dynamic"`.
 *
 * @example
 * const refunds = defineSkill({
 *   path: "acme/billing/refunds",
 *   markdown: "---\nname: refunds\ndescription: Process refund requests\n---\n\nSee references/POLICY.md.",
 *   files: { "references/POLICY.md": "# Refund policy\n…" },
 *   scopes: ["billing"],
 * });
 */
export function defineSkill(options: SkillOptions): SkillDefinition {
  if (typeof options?.markdown !== "string")
    throw new TypeError("mcp-h3: defineSkill needs markdown: the SKILL.md text");
  // A leading BOM (some editors write one) is dropped: a host reads the frontmatter only when the
  // file begins with its `---` line, and the served bytes are what the digest covers.
  const markdown = options.markdown.replace(/^\uFEFF/, "");
  const frontmatter = parseFrontmatter(markdown, "defineSkill");
  const name = frontmatter.name as string;
  const problem = skillNameProblem(name);
  if (problem)
    throw new Error(`mcp-h3: skill name ${JSON.stringify(name)} breaks the Agent Skills naming rules: ${problem}`);
  const segments = skillPathSegments(options.path ?? name, name);
  const directory = `skill://${segments.join("/")}`;
  const files: SkillFile[] = [
    {
      uri: `${directory}/SKILL.md`,
      path: "SKILL.md",
      mimeType: "text/markdown",
      bytes: bytesOf(markdown),
      read: undefined,
    },
  ];
  for (const [path, source] of Object.entries(options.files ?? {})) {
    checkFilePath(path, name);
    files.push(fileOf(`${directory}/${path}`, path, source));
  }
  const listed = options.listed !== false;
  const resources = files.map((file, index) => {
    const described = index === 0 ? { name, description: frontmatter.description as string } : { name: file.path };
    return resourceOf(file, described, { scopes: options.scopes, enabled: options.enabled, listed });
  });
  return { kind: "skill", uri: files[0]!.uri, directory, name, frontmatter, listed, files, resources };
}

/**
 * The resource that serves `file` through `resources/read`: its fixed bytes (as text when they
 * are, once), or what its `read` makes, under the skill's scopes, `enabled` and `listed`.
 */
function resourceOf(
  file: SkillFile,
  described: { name: string; description?: string },
  rules: Pick<SkillOptions, "scopes" | "enabled" | "listed">,
): ResourceDefinition {
  const { bytes, read, mimeType } = file;
  const fixed = bytes && servedContent(bytes, mimeType);
  return defineResource({
    uri: file.uri,
    ...described,
    mimeType,
    size: bytes?.byteLength,
    ...rules,
    handler:
      fixed !== undefined
        ? () => fixed
        : async (event: McpEvent) => servedContent(bytesOf(await read!(event)), mimeType),
  });
}

function fileOf(uri: string, path: string, source: SkillFileSource): SkillFile {
  if (typeof source === "string" || source instanceof Uint8Array) {
    return { uri, path, mimeType: guessMimeType(path), bytes: bytesOf(source), read: undefined };
  }
  if (source !== null && typeof source === "object") {
    const mimeType = source.mimeType ?? guessMimeType(path);
    if ("read" in source && typeof source.read === "function") {
      return { uri, path, mimeType, bytes: undefined, read: source.read };
    }
    if ("content" in source && (typeof source.content === "string" || source.content instanceof Uint8Array)) {
      return { uri, path, mimeType, bytes: bytesOf(source.content), read: undefined };
    }
  }
  throw new TypeError(`mcp-h3: skill file ${JSON.stringify(uri)}: give text, bytes, { content } or { read }`);
}
