/** A `SKILL.md`'s YAML frontmatter: found between its `---` lines and parsed once, when the skill is defined. */
import { parse } from "yaml";
import type { JsonObject } from "../index.ts";

/** The lines between the opening `---` line and the next `---` line, or undefined without both. */
function frontmatterText(markdown: string): string | undefined {
  const text = markdown.startsWith("\uFEFF") ? markdown.slice(1) : markdown;
  const lines = text.split("\n");
  if (lines[0]?.replace(/\r$/, "") !== "---") return undefined;
  const close = lines.findIndex((line, index) => index > 0 && /^---[ \t]*\r?$/.test(line));
  // CRLF lines (a file saved on Windows) as LF, as YAML reads line breaks: else the last line's
  // CR stays in its value (`description: x\r`) and a host's own parse of the file differs.
  return close === -1
    ? undefined
    : lines
        .slice(1, close)
        .map((line) => line.replace(/\r$/, ""))
        .join("\n");
}

/** Whether `value` is what JSON carries as it is: no `NaN`, infinity, date or other object kind. */
function isJsonValue(value: unknown, depth: number): boolean {
  if (depth > 32) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  }
  return false;
}

/**
 * The frontmatter of `markdown` as a JSON object, every field as written; throws, naming `where`,
 * when there is none, it is not a mapping, lacks a string `name` or `description`, or holds a value
 * JSON cannot carry as YAML reads it (`.inf`, `.nan`): a client compares the two field by field.
 *
 * @example
 * parseFrontmatter("---\nname: git\ndescription: Our Git rules\n---\n# Git", "skill"); // { name: "git", description: "Our Git rules" }
 */
export function parseFrontmatter(markdown: string, where: string): JsonObject {
  const text = frontmatterText(markdown);
  if (text === undefined)
    throw new Error(`mcp-h3: ${where}: SKILL.md must begin with YAML frontmatter between --- lines`);
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new Error(`mcp-h3: ${where}: its frontmatter is not valid YAML: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`mcp-h3: ${where}: its frontmatter must be a YAML mapping`);
  }
  const frontmatter = value as JsonObject;
  for (const field of ["name", "description"]) {
    const given = frontmatter[field];
    if (typeof given !== "string" || given.length === 0) {
      throw new Error(`mcp-h3: ${where}: its frontmatter needs a non-empty string "${field}"`);
    }
  }
  if (!isJsonValue(frontmatter, 0)) {
    throw new Error(
      `mcp-h3: ${where}: its frontmatter holds a value JSON cannot carry (an infinity, NaN, or too deep)`,
    );
  }
  return frontmatter;
}
