/**
 * What a client sees of a set of skills, as one string to compare between two dev reloads: each
 * skill's URI, frontmatter and listing, and each file's URI, type and SHA-256 (so an edit that
 * keeps a file's size still counts). Node only (dev/): hashed with node:crypto, synchronously.
 */
import { createHash } from "node:crypto";
import type { SkillDefinition } from "../types/skills.ts";

/** The skills' listing; equal strings for sets a client cannot tell apart. */
export function skillsListing(skills: readonly SkillDefinition[]): string {
  return JSON.stringify(
    skills.map((skill) => [
      skill.uri,
      skill.frontmatter,
      skill.listed,
      skill.files.map((file) => [
        file.uri,
        file.mimeType,
        file.bytes === undefined ? "dynamic" : createHash("sha256").update(file.bytes).digest("hex"),
      ]),
    ]),
  );
}
