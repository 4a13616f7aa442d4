/**
 * Module apps with skill folders for the skill-folder tests: a temporary app folder with given
 * files, and the example tree (a nested skill, subfolders, a binary file, dotfiles, a BOM, links in
 * and out of a skill's folder); removed when the test file ends.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0xff, 0xfe, 0x80]);
export const REFUNDS_MD =
  "---\nname: refunds\ndescription: Process refund requests\nlicense: MIT\n---\n\nRead references/POLICY.md.\n";
export const PARTIAL_MD = "---\nname: partial\ndescription: Partial refunds\n---\n\nSee notes.md.\n";
export const GIT_MD = "---\r\nname: git-workflow\r\ndescription: Our Git conventions ✓\r\n---\r\n\r\nRebase.\r\n";
const TOOL = 'export default { mcpFile: "tool", options: { handler: () => "echoed" } };\n';

const roots: string[] = [];
// Each test file is a process of its own: its app folders go when it ends.
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** An app folder with these files (path → content). */
export function appWith(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), "mcp-h3-skill-folders-"));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

export const SKILLS = "mcp/skills/acme/billing/refunds";
/** The example tree, with its links; `SKILLS` is the refunds skill's folder. */
export function exampleApp(): string {
  const root = appWith({
    "mcp/tools/echo.mjs": TOOL,
    [`${SKILLS}/SKILL.md`]: REFUNDS_MD,
    [`${SKILLS}/references/POLICY.md`]: "# Policy\nWithin 30 days. ✓\n",
    [`${SKILLS}/templates/regional/eu.md`]: "EU wording\n",
    [`${SKILLS}/assets/logo.png`]: PNG,
    [`${SKILLS}/.DS_Store`]: "junk",
    [`${SKILLS}/.hidden/secret.md`]: "never served",
    [`${SKILLS}/partial/SKILL.md`]: PARTIAL_MD,
    [`${SKILLS}/partial/notes.md`]: "Partial notes\n",
    "mcp/skills/git-workflow/SKILL.md": `\uFEFF${GIT_MD}`, // a BOM, as some editors write
    "mcp/skills/README.md": "above every skill: no skill's file\n",
    "outside/secret.txt": "outside the skill",
  });
  symlinkSync(join(root, "outside/secret.txt"), join(root, SKILLS, "leak.txt"));
  symlinkSync(join(root, SKILLS, "references/POLICY.md"), join(root, SKILLS, "policy-link.md"));
  symlinkSync(join(root, "outside"), join(root, SKILLS, "outside-dir"));
  return root;
}

export const digestOf = (bytes: Uint8Array | string): string =>
  `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
