/**
 * The skills the inspector's Skills panel tests serve (test/inspector-skills*.test.ts): `refunds`, nested under
 * a prefix with a subfolder and a binary file, and `daily`, dynamic; pages of one skill, so the page must follow
 * `nextCursor`. And a page opener that connects the inspector in an era and collects the page's errors.
 */
import type { Browser, Page } from "playwright-core";
import { defineMcpHandler } from "mcp-h3";
import { defineSkill, skills } from "mcp-h3/skills";

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
export const POLICY = "# Refund policy\nWithin 30 days. ✓\n";
export const refunds = defineSkill({
  path: "acme/billing/refunds",
  markdown:
    "---\nname: refunds\ndescription: Process refund requests\nmetadata:\n  version: 2.1.0\n---\n\nRead references/POLICY.md.\n",
  files: {
    "references/POLICY.md": POLICY,
    "templates/regional/eu.md": "EU wording <b>not markup</b>\n",
    "assets/logo.png": PNG,
  },
});
export const daily = defineSkill({
  path: "reports/daily",
  markdown: "---\nname: daily\ndescription: Today's report, made per read\n---\n\nSee data/today.md.\n",
  files: { "data/today.md": { read: () => "# Today\n" } },
});

/** A server with `refunds` and `daily`, `skills/list` a page of one at a time. */
export function skillsServer() {
  return defineMcpHandler({
    name: "skills-inspector",
    version: "1.0.0",
    extensions: [skills([refunds, daily], { pageSize: 1 })],
  });
}

/**
 * A page of `browser` connected to `origin`'s inspector in `era`; page errors and console errors land in
 * `problems`. `before` runs on the page before it loads (e.g. a `page.route`).
 */
export async function openInspector(
  browser: Browser,
  target: { origin: string; era: string; problems: string[] },
  before?: (page: Page) => Promise<unknown>,
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (error) => void target.problems.push(error.message));
  page.on("console", (message) => void (message.type() === "error" && target.problems.push(message.text())));
  await before?.(page);
  await page.goto(`${target.origin}/inspector?era=${target.era}`);
  await page.click("#connect");
  await page.locator("#negotiated-version").waitFor({ timeout: 15_000 });
  return page;
}

/** The labels of the chosen skill's file buttons. */
export function fileButtons(page: Page): Promise<string[]> {
  return page.$$eval("#skill-files button", (buttons) => buttons.map((button) => button.textContent ?? ""));
}
