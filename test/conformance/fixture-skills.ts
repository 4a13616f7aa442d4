/**
 * The fixture's skills (mcp-h3/skills, SEP-2640), for the suite's `sep-2640-skills-*` scenarios: a
 * skill at the top of the namespace, and one under an organizational prefix with supporting files
 * in nested folders (what `resources/directory/read` walks).
 */
import { defineSkill, skills } from "mcp-h3/skills";

const gitWorkflow = defineSkill({
  markdown: [
    "---",
    "name: git-workflow",
    "description: Follow this team's Git conventions for branching and commits",
    "---",
    "",
    "# Git workflow",
    "",
    "Branch from main, rebase before merging, and write commit subjects in the imperative.",
    "",
  ].join("\n"),
});

const pdfProcessing = defineSkill({
  path: "acme/documents/pdf-processing",
  markdown: [
    "---",
    "name: pdf-processing",
    "description: Extract, fill, and assemble PDF documents",
    "license: Apache-2.0",
    "metadata:",
    '  version: "2.1.0"',
    "---",
    "",
    "# PDF processing",
    "",
    "Read references/FORMS.md for the form fields, then choose the matching template in templates/.",
    "",
  ].join("\n"),
  files: {
    "references/FORMS.md": "# Forms\n\nEvery form has a name, a date and a signature field.\n",
    "templates/invoice.md": "# Invoice\n\nAmount: {{amount}}\n",
    "templates/regional/eu-invoice.md": "# EU invoice\n\nVAT: {{vat}}\n",
    "scripts/extract.py": "import sys\n\nprint(open(sys.argv[1], 'rb').read()[:4])\n",
  },
});

/** The skills extension the fixture plugs in, `resources/directory/read` on. */
export function fixtureSkills(): ReturnType<typeof skills> {
  return skills([pdfProcessing, gitWorkflow]);
}
