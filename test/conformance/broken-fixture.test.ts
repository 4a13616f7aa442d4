/**
 * The conformance judge against the real suite and a deliberately broken fixture: what the
 * conformance test relies on (per-check output, read and judged) does notice a broken server and a
 * scenario that did not run. One scenario only, so it costs a few seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineTool } from "../../src/index.ts";
import { startHost, type RunningHost } from "../helpers/hosts.ts";
import { judgeRun, type ExpectedRun } from "./judge.ts";
import { runSuite } from "./run-suite.ts";

const RUN_TIMEOUT = 120_000;

/** What the fixture reports for this scenario (the pin in expected.ts). */
const SIMPLE_TEXT: ExpectedRun = { scenarios: { "tools-call-simple-text": { SUCCESS: 2 } }, notScored: {} };

describe("conformance judge on a deliberately broken fixture", () => {
  let server: RunningHost;
  beforeAll(async () => {
    // `test_simple_text` answers with no content at all.
    const broken = defineMcpHandler({
      name: "broken-fixture",
      version: "1.0.0",
      tools: [defineTool({ name: "test_simple_text", description: "Broken", handler: () => ({ content: [] }) })],
    });
    server = await startHost("h3-v2", broken);
  });
  afterAll(() => server.close());

  it("fails a run whose scenario fails a check", { timeout: RUN_TIMEOUT }, async () => {
    const result = await runSuite(server.url, ["--scenario", "tools-call-simple-text"]);
    const problems = judgeRun(result, SIMPLE_TEXT);
    expect(problems, result.output).toContain("tools-call-simple-text: 1 FAILURE and 0 WARNING in a scored scenario");
    expect(problems).toContainEqual(expect.stringMatching(/^tools-call-simple-text: expected \{"SUCCESS":2\}, got/));
  });

  it("fails a run where a pinned scenario did not run", { timeout: RUN_TIMEOUT }, async () => {
    const result = await runSuite(server.url, ["--scenario", "tools-call-simple-text"]);
    const pinned: ExpectedRun = { ...SIMPLE_TEXT, scenarios: { ...SIMPLE_TEXT.scenarios, ping: { SUCCESS: 2 } } };
    expect(judgeRun(result, pinned), result.output).toContain("ping: did not run (no per-check output)");
  });
});
