/**
 * The inspector page in headless Chromium (Debian's chromium, driven by playwright-core) against the
 * conformance fixture's handler, mounted with the page on h3 v2, in each of the 2.x client's modes
 * (legacy, modern pinned to 2026-07-28, auto): it connects and shows the era and negotiated version,
 * lists tools, resources, templates and prompts, refuses a form that fails the tool's input schema
 * (errors shown, nothing sent) then calls it, shows progress before the result, cancels a call, and
 * answers an elicitation in a generated form, a sampling request in a text box and a roots request with the
 * roots set in the page (each answer comes back in the result), and lists each call in the protocol panel with its Mcp-* headers. Screenshots go to test-results/inspector/.
 * Under CI=true a missing chromium fails the suite; elsewhere it is skipped with a note.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM, unavailable } from "./helpers/services.ts";
import { defineMcpInspector } from "mcp-h3/inspector";
import { createFixtureHandler } from "./conformance/fixture.ts";
import { startInspectorHost, type InspectorHost } from "./helpers/inspector-host.ts";

// Skipped, said loudly, where chromium is missing; a failure under CI (helpers/services.ts).
const haveChromium = !unavailable(CHROMIUM);
const chromiumPath = CHROMIUM.path ?? "chromium";

const SHOTS = fileURLToPath(new URL("../test-results/inspector/", import.meta.url));

const MODES = [
  { mode: "legacy", era: "legacy", version: "2025-11-25" },
  { mode: "modern", era: "modern", version: "2026-07-28" },
  { mode: "auto", era: "modern", version: "2026-07-28" },
] as const;

/** The protocol panel's rows as [http, json-rpc, headers, status], oldest first. */
function protocolRows(page: Page): Promise<string[][]> {
  return page.$$eval("#protocol-rows tr", (rows) =>
    rows.reverse().map((row) => Array.from(row.querySelectorAll("td"), (cell) => cell.textContent ?? "").slice(1)),
  );
}

/** Records in the page, as they happen, `<first selector's text>|result or no result` at every DOM change. */
async function recordStates(page: Page, status: string, _message: string): Promise<void> {
  await page.evaluate((status) => {
    const seen: string[] = [];
    (window as unknown as { states: string[] }).states = seen;
    const observer = new MutationObserver(() => {
      const state = document.querySelector(status)?.textContent ?? "";
      seen.push(`${state}|${document.getElementById("result")!.textContent ? "result" : "no result"}`);
    });
    (window as unknown as { stateObserver?: MutationObserver }).stateObserver?.disconnect();
    (window as unknown as { stateObserver?: MutationObserver }).stateObserver = observer;
    observer.observe(document.getElementById("inspector")!, { subtree: true, childList: true, characterData: true });
  }, status);
}

/** The box that makes the next call a task: the tool's (legacy), or the tools panel's "Offer tasks" (modern). */
function taskBox(era: "legacy" | "modern"): string {
  return era === "legacy" ? "#as-task" : "#offer-tasks";
}

function seenStates(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { states: string[] }).states);
}

describe.skipIf(!haveChromium)("the inspector page in headless chromium, against the fixture", () => {
  let server: InspectorHost;
  let browser: Browser | undefined;
  const fixture = createFixtureHandler();

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startInspectorHost("h3-v2", fixture, defineMcpInspector());
    browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fixture.close();
  });

  it("is usable with the keyboard and fits a phone's width", async () => {
    const page = await browser!.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      await page.goto(`${server.origin}/inspector?era=modern`);
      // Keyboard only: Enter on Connect, Enter on a tool shows its form and focuses it, Enter calls it.
      await page.focus("#connect");
      await page.keyboard.press("Enter");
      await page.locator("#negotiated-version").waitFor({ timeout: 15_000 });
      await page.focus("#tools button[data-tool='test_simple_text']");
      await page.keyboard.press("Enter");
      await page.locator("#tool-name", { hasText: "test_simple_text" }).waitFor();
      // Focus moves into the form: here, a tool without arguments, its Call button.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Call test_simple_text");
      await page.keyboard.press("Enter");
      await page.locator("#result pre.text").waitFor();
      // Nothing wider than the screen: no horizontal scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${SHOTS}phone.png`, fullPage: true });
    } finally {
      await page.close();
    }
  });

  it("asks before connecting to an endpoint of another origin that a link names (?endpoint=…&connect=1)", async () => {
    const page = await browser!.newPage();
    try {
      // The same server under the machine's other name: another origin, as a link to another server would be.
      const other = `${server.origin.replace("localhost", "127.0.0.1")}/mcp`;
      await page.goto(`${server.origin}/inspector?era=modern&connect=1&endpoint=${encodeURIComponent(other)}`);
      await page.locator("#connection-state", { hasText: "another origin" }).waitFor();
      await page.waitForTimeout(500);
      expect(await page.locator("#negotiated-version").count()).toBe(0);
      expect(await page.textContent("#connection-state")).toContain(new URL(other).origin);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("connect");
      // Its own origin's endpoint, named by the link, connects at once.
      await page.goto(`${server.origin}/inspector?era=modern&connect=1&endpoint=/mcp`);
      await page.locator("#negotiated-version").waitFor({ timeout: 15_000 });
    } finally {
      await page.close();
    }
  });

  describe.each(MODES)("in $mode mode", ({ mode, era, version }) => {
    let page: Page;
    const problems: string[] = [];
    beforeAll(async () => {
      page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
      page.on("pageerror", (error) => void problems.push(error.message));
      page.on("console", (message) => void (message.type() === "error" && problems.push(message.text())));
      await page.goto(`${server.origin}/inspector?era=${mode}`);
      await page.click("#connect");
      await page.locator("#negotiated-version").waitFor({ timeout: 15_000 });
    });
    afterAll(() => page?.close());

    it("connects in the chosen era and lists tools, resources, templates and prompts", async () => {
      expect(await page.textContent("#era-shown")).toBe(era);
      expect(await page.textContent("#negotiated-version")).toBe(version);
      await page.locator("#prompts[data-loaded]").waitFor();
      await page.locator("#templates[data-loaded]").waitFor();
      expect(await page.locator("#tools button[data-tool]").count()).toBeGreaterThan(20);
      await expect(page.locator("#tools button[data-tool='test_tool_with_progress']").count()).resolves.toBe(1);
      expect(await page.locator("#resources button").count()).toBeGreaterThan(0);
      expect(await page.locator("#templates li").count()).toBeGreaterThan(0);
      expect(await page.locator("#prompts li", { hasText: "test_simple_prompt" }).count()).toBe(1);
    });

    it("gets a prompt through a form for its arguments and shows its messages", async () => {
      await page.click("#prompts button[data-prompt='test_prompt_with_arguments']");
      await page.getByRole("button", { name: "Get test_prompt_with_arguments" }).click();
      await page.locator("#prompt-form-errors", { hasText: "Not sent" }).waitFor();
      expect(await page.getAttribute("#prompt-arg1", "aria-invalid")).toBe("true");
      await page.fill("#prompt-arg1", "one");
      await page.fill("#prompt-arg2", "two");
      await page.getByRole("button", { name: "Get test_prompt_with_arguments" }).click();
      await page.locator("#prompt-messages li", { hasText: "Prompt with arguments" }).waitFor();
      expect(await page.textContent("#prompt-messages li")).toBe("user: Prompt with arguments: arg1='one', arg2='two'");
    });

    it("reads a resource template's URI through a form for its variables", async () => {
      await page.click("#templates button[data-template='test://template/{id}/data']");
      await page.fill("#template-id", "42");
      await page.getByRole("button", { name: /^Read / }).click();
      await page.locator("#read-result", { hasText: "templateTest" }).waitFor();
      expect(JSON.parse((await page.textContent("#read-result"))!)).toEqual({
        id: "42",
        templateTest: true,
        data: "Data for ID: 42",
      });
      await page.screenshot({ path: `${SHOTS}${mode}-template.png`, fullPage: true });
    });

    it("shows the form's validation errors and sends nothing, then calls the tool", async () => {
      await page.click("#tools button[data-tool='json_schema_2020_12_tool']");
      const before = (await protocolRows(page)).length;
      await page.getByRole("button", { name: "Call json_schema_2020_12_tool" }).click();
      await page.locator("#arg-form-errors", { hasText: "Not sent" }).waitFor();
      expect(await page.getAttribute("#arg-email", "aria-invalid")).toBe("true");
      expect(await page.textContent("#arg-email-error")).toMatch(/email/);
      await page.screenshot({ path: `${SHOTS}${mode}-validation.png`, fullPage: true });
      expect((await protocolRows(page)).length).toBe(before);
      await page.fill("#arg-name", "Ada");
      await page.fill("#arg-email", "ada@example.com");
      await page.getByRole("button", { name: "Call json_schema_2020_12_tool" }).click();
      await page.locator("#result pre.text", { hasText: "Received:" }).waitFor();
      expect(JSON.parse((await page.textContent("#result pre.text"))!.slice("Received: ".length))).toEqual({
        name: "Ada",
        email: "ada@example.com",
      });
      expect(await page.textContent("#arg-form-errors")).toBe("");
    });

    it("shows progress and log messages before the result", async () => {
      await page.click("#tools button[data-tool='test_tool_with_progress']");
      // Recorded in the page as it happens: was the result still empty when progress showed?
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        new MutationObserver(() => {
          const text = document.getElementById("call-progress-text")!.textContent ?? "";
          const result = document.getElementById("result")!.textContent ?? "";
          seen.push(`${text}|${result.length > 0 ? "result" : "no result"}`);
        }).observe(document.getElementById("inspector")!, { subtree: true, childList: true, characterData: true });
      });
      await page.getByRole("button", { name: "Call test_tool_with_progress" }).click();
      await page.locator("#result pre.text", { hasText: "Progress test completed" }).waitFor();
      const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
      expect(seen).toContain("50 / 100: Step 50|no result");
      await page.screenshot({ path: `${SHOTS}${mode}-progress.png`, fullPage: true });

      await page.click("#tools button[data-tool='test_tool_with_logging']");
      await page.getByRole("button", { name: "Call test_tool_with_logging" }).click();
      await page.locator("#result pre.text", { hasText: "Logging test completed" }).waitFor();
      expect(await page.locator("#call-logs li", { hasText: "Tool execution completed" }).count()).toBe(1);
    });

    it("answers an elicitation in a form generated from the requested schema, and the answer comes back", async () => {
      await page.click("#tools button[data-tool='test_elicitation']");
      await page.fill("#arg-message", "Who are you?");
      await page.getByRole("button", { name: "Call test_elicitation" }).click();
      await page.locator("#ask-message", { hasText: "Who are you?" }).waitFor();
      // The requested schema's required fields are checked in the page first.
      await page.getByRole("button", { name: "Accept" }).click();
      await page.locator("#ask-form-errors", { hasText: "Not sent" }).waitFor();
      await page.fill("#ask-username", "ada");
      await page.fill("#ask-email", "ada@example.com");
      await page.screenshot({ path: `${SHOTS}${mode}-elicitation.png`, fullPage: true });
      await page.getByRole("button", { name: "Accept" }).click();
      await page.locator("#result pre.text", { hasText: "User response: action=accept" }).waitFor();
      expect(await page.textContent("#result pre.text")).toBe(
        'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      );
      expect(await page.locator("#ask").isHidden()).toBe(true);
    });

    it("answers a sampling request with the text typed in the page", async () => {
      await page.click("#tools button[data-tool='test_sampling']");
      await page.fill("#arg-prompt", "Say hi");
      await page.getByRole("button", { name: "Call test_sampling" }).click();
      await page.locator("#sampling-messages li", { hasText: "user: Say hi" }).waitFor();
      await page.fill("#sampling-reply", "hi from the page");
      await page.getByRole("button", { name: "Send reply" }).click();
      await page.locator("#result pre.text", { hasText: "LLM response: hi from the page" }).waitFor();
    });

    it("answers the server's roots request with the roots set in the page", async () => {
      await page.fill("#roots", "file:///work/one\n\nfile:///work/two\n");
      await page.locator("#roots").dispatchEvent("change");
      await page.click("#tools button[data-tool='test_input_required_result_list_roots']");
      await page.getByRole("button", { name: "Call test_input_required_result_list_roots" }).click();
      await page.locator("#result pre.text", { hasText: "Found 2 root(s)" }).waitFor();
    });

    it("calls a tool as a task and follows it: status, status message, an input request answered in the page, the result", async () => {
      await page.click("#tools button[data-tool='slow_compute']");
      // Legacy: ticked, as slow_compute's execution.taskSupport allows; modern: the extension offered, the server decides.
      if (era === "legacy") expect(await page.isChecked("#as-task")).toBe(true);
      await page.check(taskBox(era));
      await recordStates(page, "#task-status", "#task-message");
      await page.fill("#arg-seconds", "0.2");
      await page.fill("#arg-label", "pi");
      await page.getByRole("button", { name: "Call slow_compute" }).click();
      await page.locator("#result pre.text", { hasText: "Computed pi after 0.2 s" }).waitFor();
      expect(await page.textContent("#task-status")).toBe("completed");
      // The last status message stays in the task's history, not in its finished state.
      expect(await page.textContent("#task-message")).toBe("");
      expect(await page.textContent("#task-events")).toContain("Computing pi for 0.2 s");
      expect(await page.textContent("#task-id")).toMatch(/^\S{8,}$/);
      // The task was shown working (and the result still empty) before it completed.
      expect(await seenStates(page)).toContain("working|no result");

      // A task that asks: its input request is answered in the page's form, and the answer decides the result.
      await page.click("#tools button[data-tool='confirm_delete']");
      await recordStates(page, "#task-status", "#task-message");
      await page.check(taskBox(era));
      await page.fill("#arg-filename", "notes.txt");
      await page.getByRole("button", { name: "Call confirm_delete" }).click();
      await page.locator("#ask-message", { hasText: "Delete notes.txt?" }).waitFor();
      await page.check("#ask-confirm");
      await page.screenshot({ path: `${SHOTS}${mode}-task-input.png`, fullPage: true });
      await page.getByRole("button", { name: "Accept" }).click();
      await page.locator("#result pre.text", { hasText: "Deleted notes.txt" }).waitFor();
      expect(await page.textContent("#task-status")).toBe("completed");
      expect((await seenStates(page)).some((state) => state.startsWith("input_required|"))).toBe(true);
      await page.screenshot({ path: `${SHOTS}${mode}-task-done.png`, fullPage: true });
    });

    it("cancels a running task from the page (tasks/cancel)", async () => {
      await page.click("#tools button[data-tool='slow_compute']");
      await page.check(taskBox(era));
      await page.fill("#arg-seconds", "600");
      await page.getByRole("button", { name: "Call slow_compute" }).click();
      await page.locator("#task-status[data-status='working']").waitFor();
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.locator("#result", { hasText: "Task cancelled" }).waitFor();
      expect(await page.textContent("#task-status")).toBe("cancelled");
      const rows = await protocolRows(page);
      expect(rows.some(([, rpc]) => rpc!.startsWith("tasks/cancel"))).toBe(true);
      await page.screenshot({ path: `${SHOTS}${mode}-task-cancelled.png`, fullPage: true });
    });

    it("shows show_weather's MCP App view in a sandboxed frame on another origin; the view calls a server tool", async () => {
      await page.click("#tools button[data-tool='show_weather']");
      await page.fill("#arg-city", "Lisbon");
      await page.getByRole("button", { name: "Call show_weather" }).click();
      await page.locator("#app-log li", { hasText: "tool result sent" }).waitFor();
      // The proxy frame is on the other loopback name; the view inside it has an opaque origin.
      const proxy = await page.getAttribute("#view-frame", "src");
      expect(new URL(proxy!).origin).toBe(server.origin.replace("localhost", "127.0.0.1"));
      const view = page.frameLocator("#view-frame").frameLocator("iframe");
      await view.locator("#result", { hasText: /^Lisbon: -?\d+ °C/ }).waitFor();
      expect(await view.locator("#status").textContent()).toBe("Connected to mcp-h3-inspector");
      const callsBefore = (await protocolRows(page)).filter(([, rpc]) => rpc!.startsWith("tools/call")).length;
      await view.getByRole("button", { name: "Refresh through the host" }).click();
      await view.locator("#refreshed", { hasText: `served by mcp-h3 in the ${era} era` }).waitFor();
      await page.locator("#app-log li", { hasText: "view got refresh_weather's result" }).waitFor();
      // The view's call went through the page's client: the protocol panel lists it.
      const calls = (await protocolRows(page)).filter(([, rpc]) => rpc!.startsWith("tools/call"));
      expect(calls.length).toBe(callsBefore + 1);
      if (era === "modern") expect(calls.at(-1)![2]).toContain("mcp-name: refresh_weather");
      await page.screenshot({ path: `${SHOTS}${mode}-app-view.png`, fullPage: true });
    });

    it("lists each call in the protocol panel with its Mcp-* headers", async () => {
      const rows = await protocolRows(page);
      const calls = rows.filter(([, rpc]) => rpc!.startsWith("tools/call"));
      expect(calls.length).toBeGreaterThanOrEqual(3);
      for (const [httpMethod, , headers, status] of calls) {
        expect(httpMethod).toBe("POST");
        expect(headers).toContain(`mcp-protocol-version: ${version}`);
        expect(status).toMatch(/^200 (application\/json|text\/event-stream)/);
      }
      if (era === "modern") {
        expect(calls[0]![2]).toContain("mcp-method: tools/call");
        expect(calls[0]![2]).toContain("mcp-name: json_schema_2020_12_tool");
        expect(rows.some(([, rpc]) => rpc!.startsWith("server/discover"))).toBe(true);
      } else {
        expect(rows[0]![1]).toMatch(/^initialize/);
        expect(calls[0]![2]).toMatch(/mcp-session-id: \S+/);
      }
      await page.screenshot({ path: `${SHOTS}${mode}-protocol.png`, fullPage: true });
      expect(problems).toEqual([]);
    });
  });
});
