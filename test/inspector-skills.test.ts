/**
 * The inspector page's Skills panel (SEP-2640) in headless Chromium, in both eras, against a server with
 * two skills on h3 v2: one nested under a prefix (acme/billing/refunds) with a subfolder and a binary file,
 * one dynamic (found by walking resources/directory/read). The panel lists every skill across pages of
 * `skills/list`, shows a chosen skill's frontmatter and files, reads a file and checks its size and SHA-256
 * against the manifest ("verified"). A server without the extension shows no Skills section; a dynamic skill
 * on a server without directoryRead shows its SKILL.md alone. (Answers altered on the wire: inspector-skills-wire.) Under CI=true a missing chromium fails the suite; elsewhere it is skipped.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM, unavailable } from "./helpers/services.ts";
import { defineMcpHandler, defineTool } from "mcp-h3";
import { defineMcpInspector } from "mcp-h3/inspector";
import { defineSkill, skills } from "mcp-h3/skills";
import { startInspectorHost, type InspectorHost } from "./helpers/inspector-host.ts";
import { PNG, POLICY, fileButtons, openInspector, refunds, skillsServer } from "./helpers/inspector-skills-fixture.ts";

const haveChromium = !unavailable(CHROMIUM);
const chromiumPath = CHROMIUM.path ?? "chromium";

const SHOTS = fileURLToPath(new URL("../test-results/inspector/", import.meta.url));
/** A dynamic skill on a server that offers no directory reads; its description carries markup. */
const noDirectoryRead = defineMcpHandler({
  name: "skills-no-directory-read",
  version: "1.0.0",
  extensions: [
    skills(
      [
        defineSkill({
          markdown:
            "---\nname: live\ndescription: <img src=x onerror=window.owned=1> made per read\n---\n\nSee data.md.\n",
          files: { "data.md": { read: () => "live\n" } },
        }),
      ],
      { directoryRead: false },
    ),
  ],
});
const without = defineMcpHandler({
  name: "no-skills",
  version: "1.0.0",
  tools: [defineTool({ name: "ping", description: "pong", handler: () => "pong" })],
});

describe.skipIf(!haveChromium)("the inspector's Skills panel in headless chromium", () => {
  let server: InspectorHost;
  let plain: InspectorHost;
  let shallow: InspectorHost;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startInspectorHost("h3-v2", skillsServer(), defineMcpInspector());
    plain = await startInspectorHost("h3-v2", without, defineMcpInspector());
    shallow = await startInspectorHost("h3-v2", noDirectoryRead, defineMcpInspector());
    browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await plain?.close();
    await shallow?.close();
  });

  const open = (origin: string, era: string, problems: string[]) => openInspector(browser!, { origin, era, problems });

  describe.each(["legacy", "modern"] as const)("%s era", (era) => {
    let page: Page;
    const problems: string[] = [];
    beforeAll(async () => {
      page = await open(server.origin, era, problems);
      await page.locator("#skills[data-loaded]").waitFor({ timeout: 15_000 });
    });
    afterAll(() => page?.close());

    it("lists every skill across pages: name, description, URI, file count or dynamic", async () => {
      expect(await page.textContent("#era-shown")).toBe(era);
      expect(await page.isVisible("#skills-card")).toBe(true);
      const items = await page.$$eval("#skills button[data-skill]", (buttons) =>
        buttons.map((button) => ({
          uri: button.dataset.skill,
          name: button.querySelector("strong")?.textContent,
          files: button.querySelector(".badge")?.textContent,
          text: button.textContent,
        })),
      );
      expect(items.map(({ uri, name, files }) => ({ uri, name, files }))).toEqual([
        { uri: "skill://acme/billing/refunds/SKILL.md", name: "refunds", files: "4 files" },
        { uri: "skill://reports/daily/SKILL.md", name: "daily", files: "dynamic" },
      ]);
      expect(items[0]!.text).toContain("Process refund requests");
      expect(items[1]!.text).toContain("Today's report, made per read");
      await page.click("#skills button[data-skill='skill://acme/billing/refunds/SKILL.md']");
      await page.click("#skill-files button[data-skill-file='skill://acme/billing/refunds/references/POLICY.md']");
      await page.locator("#skill-file-verdict").waitFor();
      mkdirSync(SHOTS, { recursive: true });
      await page.locator("#skills-card").screenshot({ path: `${SHOTS}skills-${era}.png` });
    });

    it("shows a skill's frontmatter and its manifest's files with sizes, then reads a text file: verified", async () => {
      await page.click("#skills button[data-skill='skill://acme/billing/refunds/SKILL.md']");
      await page.locator("#skill-files[data-loaded]").waitFor();
      expect(await page.textContent("#skill-name")).toBe("refunds");
      expect(JSON.parse((await page.textContent("#skill-frontmatter"))!)).toEqual({
        name: "refunds",
        description: "Process refund requests",
        metadata: { version: "2.1.0" },
      });
      const policyBytes = Buffer.byteLength(POLICY);
      expect(await fileButtons(page)).toEqual([
        `SKILL.md ${refunds.files[0]!.bytes!.byteLength} B`,
        `references/POLICY.md ${policyBytes} B`,
        `templates/regional/eu.md ${refunds.files[2]!.bytes!.byteLength} B`,
        `assets/logo.png ${PNG.byteLength} B`,
      ]);
      await page.click("#skill-files button[data-skill-file='skill://acme/billing/refunds/references/POLICY.md']");
      await page.locator("#skill-file-verdict").waitFor();
      expect(await page.textContent("#skill-file-text")).toBe(POLICY);
      expect(await page.getAttribute("#skill-file-verdict", "data-verdict")).toBe("verified");
      expect(await page.textContent("#skill-file-verdict")).toMatch(
        new RegExp(`^verified: ${policyBytes} bytes, sha256:[0-9a-f]{64}$`),
      );
      // A file in the subfolder: its markup is shown as text, not parsed.
      await page.click("#skill-files button[data-skill-file='skill://acme/billing/refunds/templates/regional/eu.md']");
      await page.locator("#skill-file-text", { hasText: "EU wording" }).waitFor();
      expect(await page.textContent("#skill-file-text")).toBe("EU wording <b>not markup</b>\n");
      expect(await page.locator("#skill-file b").count()).toBe(0);
      expect(await page.getAttribute("#skill-file-verdict", "data-verdict")).toBe("verified");
    });

    it("reads a binary file: its type shown, its decoded bytes verified", async () => {
      await page.click("#skill-files button[data-skill-file='skill://acme/billing/refunds/assets/logo.png']");
      await page.locator("#skill-file-blob").waitFor();
      expect(await page.textContent("#skill-file-blob")).toBe(`(image/png, ${PNG.byteLength} bytes, not shown)`);
      expect(await page.getAttribute("#skill-file-verdict", "data-verdict")).toBe("verified");
    });

    it("walks a dynamic skill's directories (resources/directory/read) for its files, and reads one", async () => {
      await page.click("#skills button[data-skill='skill://reports/daily/SKILL.md']");
      await page.locator("#skill-files[data-loaded]").waitFor();
      expect(await page.textContent("#skill-name")).toBe("daily");
      expect(await page.textContent("#skill-files-note")).toContain("resources/directory/read");
      expect((await fileButtons(page)).map((label) => label.split(" ")[0])).toEqual(["SKILL.md", "data/today.md"]);
      await page.click("#skill-files button[data-skill-file='skill://reports/daily/data/today.md']");
      await page.locator("#skill-file-text").waitFor();
      expect(await page.textContent("#skill-file-text")).toBe("# Today\n");
      expect(await page.getAttribute("#skill-file-verdict", "data-verdict")).toBe("unchecked");
      expect(await page.textContent("#skill-file-verdict")).toBe("dynamic: no digest to check (8 bytes read)");
      expect(problems).toEqual([]);
    });
  });

  it.each(["legacy", "modern"] as const)(
    "shows no Skills section for a server without the extension (%s)",
    async (era) => {
      const problems: string[] = [];
      const page = await open(plain.origin, era, problems);
      try {
        await page.locator("#tools[data-loaded]").waitFor();
        // The section is in the page, hidden: not merely absent.
        expect(await page.locator("#skills-card").count()).toBe(1);
        expect(await page.isHidden("#skills-card")).toBe(true);
        expect(await page.locator("#skills li").count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it("shows a dynamic skill's SKILL.md alone when the server offers no directory reads; markup stays text", async () => {
    const problems: string[] = [];
    const page = await open(shallow.origin, "legacy", problems);
    try {
      await page.locator("#skills[data-loaded]").waitFor({ timeout: 15_000 });
      expect(await page.textContent("#skills button[data-skill]")).toContain("<img src=x onerror=window.owned=1>");
      await page.click("#skills button[data-skill='skill://live/SKILL.md']");
      await page.locator("#skill-files[data-loaded]").waitFor();
      expect(await page.textContent("#skill-files-note")).toContain("no directory reads");
      expect(await fileButtons(page)).toEqual(["SKILL.md"]);
      await page.click("#skill-files button[data-skill-file='skill://live/SKILL.md']");
      await page.locator("#skill-file-text", { hasText: "See data.md." }).waitFor();
      expect(await page.getAttribute("#skill-file-verdict", "data-verdict")).toBe("unchecked");
      expect(await page.locator("main img").count()).toBe(0);
      expect(await page.evaluate(() => (window as { owned?: number }).owned)).toBeUndefined();
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("fits a phone's width with a nested skill and a file read", async () => {
    const page = await browser!.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      await page.goto(`${server.origin}/inspector?era=modern&connect=1`);
      await page.locator("#skills[data-loaded]").waitFor({ timeout: 15_000 });
      await page.click("#skills button[data-skill='skill://acme/billing/refunds/SKILL.md']");
      await page.click("#skill-files button[data-skill-file='skill://acme/billing/refunds/templates/regional/eu.md']");
      await page.locator("#skill-file-verdict[data-verdict='verified']").waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      mkdirSync(SHOTS, { recursive: true });
      await page.locator("#skills-card").screenshot({ path: `${SHOTS}skills-phone.png` });
    } finally {
      await page.close();
    }
  });

  it("hides the Skills section again on disconnect", async () => {
    const page = await open(server.origin, "modern", []);
    try {
      await page.locator("#skills[data-loaded]").waitFor({ timeout: 15_000 });
      await page.click("#disconnect");
      await page.locator("#connection-state", { hasText: "Not connected" }).waitFor();
      expect(await page.isHidden("#skills-card")).toBe(true);
      expect(await page.locator("#skills li").count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
