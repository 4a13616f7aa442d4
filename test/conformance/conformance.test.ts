/**
 * The official conformance suite (0.2.0-alpha.12) against the fixture server, with per-check
 * output: every run is held to the exact number of checks per status in every scenario
 * (test/conformance/expected.ts), and a FAILURE or WARNING in any scored scenario fails it, however
 * the suite itself scores the run (its exit code and "failed" count see only FAILURE).
 * Each run on h3 v2 and on h3 v1:
 * - legacy: `--requirements 2025-11-25`, including the not-scored `server-session-lifecycle`,
 *   `server-sse-polling` and `json-schema-2020-12`;
 * - modern: `--requirements 2026-07-28`, the ten scenarios of the tasks extension included (every
 *   check a SUCCESS but the one the suite itself skips);
 * - `--suite all --spec-version 2026-07-28`, pending scenarios included;
 * - the skills extension's three scenarios (`sep-2640-skills-*`), in each era.
 * Both eras are served on one URL by one server process, with no expected-failures file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTS, startHost, type RunningHost } from "../helpers/hosts.ts";
import { ALL_2026_07_28, LEGACY_2025_11_25, MODERN_2026_07_28, SKILLS_LEGACY, SKILLS_MODERN } from "./expected.ts";
import { createFixtureHandler } from "./fixture.ts";
import { judgeRun } from "./judge.ts";
import { runSuite } from "./run-suite.ts";

const RUN_TIMEOUT = 600_000;

describe.sequential.each(HOSTS)("conformance 0.2.0-alpha.12 on %s, both eras on one server", (host) => {
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost(host, createFixtureHandler());
  });
  afterAll(() => server.close());

  it("legacy: --requirements 2025-11-25, exactly the pinned checks", { timeout: RUN_TIMEOUT }, async () => {
    const result = await runSuite(server.url, ["--requirements", "2025-11-25"]);
    expect(judgeRun(result, LEGACY_2025_11_25), result.output).toEqual([]);
  });

  it("modern: --requirements 2026-07-28, exactly the pinned checks", { timeout: RUN_TIMEOUT }, async () => {
    const result = await runSuite(server.url, ["--requirements", "2026-07-28"]);
    expect(judgeRun(result, MODERN_2026_07_28), result.output).toEqual([]);
  });

  it("modern: --suite all --spec-version 2026-07-28, exactly the pinned checks", { timeout: RUN_TIMEOUT }, async () => {
    const result = await runSuite(server.url, ["--suite", "all", "--spec-version", "2026-07-28"]);
    expect(judgeRun(result, ALL_2026_07_28), result.output).toEqual([]);
  });

  it.each([
    ["modern", [], SKILLS_MODERN],
    ["legacy", ["--spec-version", "2025-11-25", "--force"], SKILLS_LEGACY],
  ] as const)(
    "skills (SEP-2640), %s: exactly the pinned checks",
    { timeout: RUN_TIMEOUT },
    async (_era, args, expected) => {
      for (const [scenario, counts] of Object.entries(expected)) {
        const result = await runSuite(server.url, ["--scenario", scenario, ...args]);
        expect([result.exitCode, result.scenarios.get(scenario)], result.output).toEqual([0, counts]);
      }
    },
  );
});
