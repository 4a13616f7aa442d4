/**
 * mcp-h3/testing on an h3 v1 app, in process: the entry runs it through h3 v1's own `toWebHandler`,
 * from the h3 the application installed. This repository's `h3` is v2 (v1 is the `h3-v1` alias), so
 * the file stands for a project on h3 v1 by resolving `h3` to the real h3 v1 package; nothing is faked.
 * Both eras; an elicitation (a legacy server→client request on the call's stream) and a task.
 */
import { createApp, toWebHandler } from "h3-v1";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createMcpTestClient, textOf } from "../src/_entries/testing.ts";
import { buildEventHandler } from "./helpers/testing-server.ts";

vi.mock("h3", async () => await import("h3-v1"));

const handler = buildEventHandler();
const app = createApp();
app.use("/mcp", handler as never);
afterAll(() => handler.close());

describe.each(["legacy", "modern"] as const)("createMcpTestClient on an h3 v1 app in the %s era", (era) => {
  it("is given the app itself", async () => {
    await using client = await createMcpTestClient(app, {
      era,
      elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    expect(client.era).toBe(era);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "v1" } }))).toBe("v1");
    expect(textOf(await client.callTool({ name: "greet", arguments: {} }))).toBe("Hello, Ada!");
    expect(textOf(await client.runTask({ name: "report", arguments: {} }))).toBe("report for Ada");
  });

  it("is given h3 v1's web handler of the app", async () => {
    await using client = await createMcpTestClient(toWebHandler(app), { era });
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "web" } }))).toBe("web");
  });
});
