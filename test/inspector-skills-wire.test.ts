/**
 * The inspector's Skills panel against answers altered on their way to the page (playwright's `page.route`
 * between the page and a real mcp-h3 server, modern era, h3 v2): a manifest whose digest does not match the
 * bytes read says "digest mismatch"; a `skills/list` that repeats its `nextCursor` and carries entries not of the
 * extension's shape is paged to its end once, those entries left out and counted; a directory read that names a
 * URI outside the skill, and the skill's own directory again, is walked without leaving the skill or looping.
 * Under CI=true a missing chromium fails the suite; elsewhere it is skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Route } from "playwright-core";
import { CHROMIUM, unavailable } from "./helpers/services.ts";
import { defineMcpInspector } from "mcp-h3/inspector";
import { startInspectorHost, type InspectorHost } from "./helpers/inspector-host.ts";
import { fileButtons, openInspector, skillsServer } from "./helpers/inspector-skills-fixture.ts";

const haveChromium = !unavailable(CHROMIUM);
const chromiumPath = CHROMIUM.path ?? "chromium";

type Message = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

/**
 * Routes the page's MCP requests of `method` through `alter`: it gets the request's params (it may change
 * what is sent) and the server's result (it may change what the page gets). Other requests pass as they are.
 */
function alterAnswers(
  method: string,
  alter: (params: Record<string, unknown>, result: Record<string, unknown>) => void,
  sendParams: (params: Record<string, unknown>) => Record<string, unknown> = (params) => params,
) {
  return async (route: Route) => {
    const sent = JSON.parse(route.request().postData() ?? "null") as Message | null;
    if (sent?.method !== method) return route.fallback();
    const params = sent.params ?? {};
    const response = await route.fetch({ postData: JSON.stringify({ ...sent, params: sendParams(params) }) });
    const answer = JSON.parse(await response.text()) as Message;
    if (answer.result) alter(params, answer.result);
    return route.fulfill({ response, body: JSON.stringify(answer) });
  };
}

describe.skipIf(!haveChromium)("the inspector's Skills panel, answers altered on the wire", () => {
  let server: InspectorHost;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startInspectorHost("h3-v2", skillsServer(), defineMcpInspector());
    browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("says 'digest mismatch' when the manifest does not match the bytes read", async () => {
    const problems: string[] = [];
    let altered = 0;
    const zeros = `sha256:${"0".repeat(64)}`;
    const page = await openInspector(browser!, { origin: server.origin, era: "modern", problems }, (page) =>
      page.route(
        "**/mcp",
        alterAnswers("skills/list", (_, result) => {
          for (const skill of result.skills as { resources: { uri: string; digest: string }[] | "dynamic" }[]) {
            if (skill.resources === "dynamic") continue;
            for (const file of skill.resources) {
              if (!file.uri.endsWith("/references/POLICY.md")) continue;
              file.digest = zeros;
              altered++;
            }
          }
        }),
      ),
    );
    try {
      await page.locator("#skills[data-loaded]").waitFor({ timeout: 15_000 });
      await page.click("#skills button[data-skill='skill://acme/billing/refunds/SKILL.md']");
      await page.click("#skill-files button[data-skill-file='skill://acme/billing/refunds/references/POLICY.md']");
      await page.locator("#skill-file-verdict").waitFor();
      expect(altered).toBe(1);
      expect(await page.getAttribute("#skill-file-verdict", "data-verdict")).toBe("mismatch");
      expect(await page.textContent("#skill-file-verdict")).toContain(
        `digest mismatch: manifest ${zeros}, read sha256:`,
      );
      // The other files still verify.
      await page.click("#skill-files button[data-skill-file='skill://acme/billing/refunds/SKILL.md']");
      await page.locator("#skill-file-verdict[data-verdict='verified']").waitFor();
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("pages a skills/list that repeats its cursor once, leaving out entries not of the extension's shape", async () => {
    const problems: string[] = [];
    let asked = 0;
    const page = await openInspector(browser!, { origin: server.origin, era: "modern", problems }, (page) =>
      page.route(
        "**/mcp",
        alterAnswers(
          "skills/list",
          (_, result) => {
            asked++;
            (result.skills as unknown[]).push(
              { uri: 42 },
              { uri: "skill://x/SKILL.md", frontmatter: {}, resources: 7 },
            );
            result.nextCursor = "again";
          },
          // "again" is this route's: the server is asked for its first page each time.
          ({ cursor, ...rest }) => (cursor === "again" ? rest : { cursor, ...rest }),
        ),
      ),
    );
    try {
      await page.locator("#skills[data-loaded]").waitFor({ timeout: 15_000 });
      // The first answer, then one with the cursor it gave; the same cursor again ends the list.
      expect(asked).toBe(2);
      expect(await page.$$eval("#skills button[data-skill]", (buttons) => buttons.map((b) => b.dataset.skill))).toEqual(
        ["skill://acme/billing/refunds/SKILL.md"],
      );
      expect(await page.textContent("#skills li.error")).toBe("4 entries not of the extension's shape left out");
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("walks a dynamic skill's directories without leaving the skill or reading a directory twice", async () => {
    const problems: string[] = [];
    const reads: string[] = [];
    const page = await openInspector(browser!, { origin: server.origin, era: "modern", problems }, (page) =>
      page.route(
        "**/mcp",
        alterAnswers("resources/directory/read", (params, result) => {
          reads.push(`${String(params.uri)}${params.cursor === undefined ? "" : `#${String(params.cursor)}`}`);
          (result.resources as unknown[]).push(
            { uri: "skill://acme/billing/refunds/SKILL.md", name: "elsewhere", mimeType: "text/markdown" },
            { uri: "skill://reports", name: "up", mimeType: "inode/directory" },
            { uri: "skill://reports/daily/data", name: "data", mimeType: "inode/directory" },
            { name: "no uri" },
          );
        }),
      ),
    );
    try {
      await page.locator("#skills[data-loaded]").waitFor({ timeout: 15_000 });
      await page.click("#skills button[data-skill='skill://reports/daily/SKILL.md']");
      await page.locator("#skill-files[data-loaded]").waitFor();
      // Pages of one: the skill's directory is two pages (SKILL.md, data/), then data/ is one.
      expect(reads).toEqual(["skill://reports/daily", "skill://reports/daily#1", "skill://reports/daily/data"]);
      expect((await fileButtons(page)).map((label) => label.split(" ")[0])).toEqual(["SKILL.md", "data/today.md"]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
