/**
 * mcp-h3/skills: the Skills extension (SEP-2640, `io.modelcontextprotocol/skills`). A skill is a
 * `SKILL.md` (YAML frontmatter, then instructions) with supporting files, served at
 * `skill://<path>/<file>` through `resources/read`, listed by `skills/list` with a manifest of
 * digests, fetched by `skills/get`, browsed by `resources/directory/read`. A server that does not
 * import this entry does not carry it.
 *
 * @example
 * import { defineMcpHandler } from "mcp-h3";
 * import { defineSkill, skills } from "mcp-h3/skills";
 * const refunds = defineSkill({
 *   path: "acme/billing/refunds",
 *   markdown: "---\nname: refunds\ndescription: Process refund requests\n---\n\nRead references/POLICY.md first.",
 *   files: { "references/POLICY.md": "# Policy\n…" },
 * });
 * export default defineMcpHandler({ name: "app", version: "1.0.0", extensions: [skills([refunds])] });
 */
export { defineSkill } from "../skills/define-skill.ts";
export { skills, SKILLS_EXTENSION } from "../skills/extension.ts";
export type {
  SkillDefinition,
  SkillFile,
  SkillFileContent,
  SkillFileSource,
  SkillOptions,
  SkillsOptions,
} from "../types/skills.ts";
