/**
 * The official conformance suite (0.2.0-alpha.12) against the fixture server: both eras on one URL
 * in one server process, with no expected-failures file.
 * - legacy: `--requirements 2025-11-25`, every scenario green, including the not-scored
 *   `server-session-lifecycle`, `server-sse-polling` and `json-schema-2020-12`;
 * - modern: `--requirements 2026-07-28` with every scored scenario green (the optional tasks
 *   extension is not implemented and never scored), and `--suite all --spec-version 2026-07-28`
 *   entirely green, pending scenarios included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHost, type RunningHost } from "../helpers/hosts.ts";
import { createFixtureHandler } from "./fixture.ts";
import { runSuite, type SuiteResult } from "./run-suite.ts";

const RUN_TIMEOUT = 600_000;

function failing(result: SuiteResult, include: (scenario: string) => boolean = () => true): string[] {
  return [...result.scenarios].filter(([name, counts]) => include(name) && counts.failed > 0).map(([name]) => name);
}

describe.sequential("conformance 0.2.0-alpha.12 on one server, both eras", () => {
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost("h3-v2", createFixtureHandler());
  });
  afterAll(() => server.close());

  it("legacy: --requirements 2025-11-25, every scenario green", { timeout: RUN_TIMEOUT }, async () => {
    const result = await runSuite(server.url, ["--requirements", "2025-11-25"]);
    expect(failing(result), result.output).toEqual([]);
    expect(result.exitCode, result.output).toBe(0);
    // 30 scored scenarios plus the 3 not-scored ones this project also requires.
    expect(result.scenarios.size, result.output).toBe(33);
    for (const required of ["server-session-lifecycle", "server-sse-polling", "json-schema-2020-12"]) {
      expect(result.scenarios.get(required)?.passed, required).toBeGreaterThan(0);
    }
  });

  it("modern: --requirements 2026-07-28, every scored scenario green", { timeout: RUN_TIMEOUT }, async () => {
    const result = await runSuite(server.url, ["--requirements", "2026-07-28"]);
    const isTasksExtension = (name: string): boolean => name.startsWith("tasks-");
    expect(
      failing(result, (name) => !isTasksExtension(name)),
      result.output,
    ).toEqual([]);
    expect(result.exitCode, result.output).toBe(0);
    // 37 scored scenarios, 3 pending ones and the 10 scenarios of the optional tasks extension.
    expect(result.scenarios.size, result.output).toBe(50);
  });

  it("modern: --suite all --spec-version 2026-07-28, all green", { timeout: RUN_TIMEOUT }, async () => {
    const result = await runSuite(server.url, ["--suite", "all", "--spec-version", "2026-07-28"]);
    expect(failing(result), result.output).toEqual([]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.scenarios.size, result.output).toBe(40);
    for (const pending of ["http-header-validation", "http-custom-header-server-validation", "json-schema-2020-12"]) {
      expect(result.scenarios.get(pending)?.passed, pending).toBeGreaterThan(0);
    }
    expect(result.total, result.output).toEqual({ passed: expect.any(Number), failed: 0 });
  });
});
