/**
 * `skills()`: the skills extension (`io.modelcontextprotocol/skills`, SEP-2640) over the skills
 * `defineSkill` made. Their files are served as resources (so `resources/read`, `resources/list`
 * and subscriptions treat them as any other, under each skill's scopes and `enabled`); the
 * extension adds `skills/list`, `skills/get` and, with `directoryRead`, `resources/directory/read`.
 */
import type { McpExtension } from "../index.ts";
import type { SkillDefinition, SkillsOptions } from "../types/skills.ts";
import { getSkill, listSkills, readDirectory, type SkillMethodsConfig } from "./methods.ts";
import { SkillSet } from "./skill-set.ts";

/** The extension's identifier, the key of its settings under `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

function checkedOptions(options: SkillsOptions): Omit<SkillMethodsConfig, "set"> & { directoryRead: boolean } {
  const { pageSize = 100, cacheHints = {}, directoryRead = true } = options;
  if (!Number.isSafeInteger(pageSize) || pageSize <= 0) {
    throw new RangeError(`mcp-h3: skills(): pageSize must be a positive whole number, not ${String(pageSize)}`);
  }
  const { ttlMs = 0, cacheScope = "private" } = cacheHints;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0) {
    throw new RangeError(
      `mcp-h3: skills(): cacheHints.ttlMs must be a non-negative whole number, not ${String(ttlMs)}`,
    );
  }
  if (cacheScope !== "public" && cacheScope !== "private") {
    throw new RangeError(`mcp-h3: skills(): cacheHints.cacheScope must be "public" or "private"`);
  }
  return { pageSize, cacheHints: { ttlMs, cacheScope }, directoryRead: directoryRead === true };
}

/**
 * Serves `definitions` (from `defineSkill`) to clients of both eras. Skills are checked and
 * indexed here, once: two skills serving one file throw, a skill past SEP-2640's limits (512
 * files, 16 MiB) is served with a warning.
 *
 * @example
 * const git = defineSkill({ markdown: "---\nname: git-workflow\ndescription: Our Git conventions\n---\n\nRebase, never merge." });
 * export default defineMcpHandler({ name: "app", version: "1.0.0", extensions: [skills([git])] });
 */
export function skills(definitions: readonly SkillDefinition[], options: SkillsOptions = {}): McpExtension {
  const { directoryRead, ...rest } = checkedOptions(options);
  const config: SkillMethodsConfig = { ...rest, set: new SkillSet(definitions, (message) => console.warn(message)) };
  return {
    name: SKILLS_EXTENSION,
    plug(server) {
      server.resources(definitions.flatMap((skill) => skill.resources));
      server.method("skills/list", (call) => listSkills(call, config));
      server.method("skills/get", (call) => getSkill(call, config));
      if (directoryRead) server.method("resources/directory/read", (call) => readDirectory(call, config));
      server.advertise({ extensions: { [SKILLS_EXTENSION]: directoryRead ? { directoryRead: true } : {} } });
    },
  };
}
