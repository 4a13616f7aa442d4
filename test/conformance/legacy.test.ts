/**
 * The official conformance suite against the fixture server, legacy era: every scored scenario of
 * `--requirements 2025-11-25` green with no expected-failures file, plus the not-scored
 * `server-session-lifecycle`, `server-sse-polling` and `json-schema-2020-12`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHost, type RunningHost } from "../helpers/hosts.ts";
import { createFixtureHandler } from "./fixture.ts";
import { runSuite } from "./run-suite.ts";

describe("conformance 0.2.0-alpha.12, legacy era", () => {
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost("h3-v2", createFixtureHandler());
  });
  afterAll(() => server.close());

  it("passes --requirements 2025-11-25 with every scenario green", { timeout: 600_000 }, async () => {
    const result = await runSuite(server.url, ["--requirements", "2025-11-25"]);
    const failing = [...result.scenarios].filter(([, counts]) => counts.failed > 0).map(([name]) => name);
    expect(failing, result.output).toEqual([]);
    expect(result.exitCode, result.output).toBe(0);
    // 30 scored scenarios and the 3 not-scored ones this project also requires.
    expect(result.scenarios.size, result.output).toBe(33);
    for (const required of ["server-session-lifecycle", "server-sse-polling", "json-schema-2020-12"]) {
      expect(result.scenarios.get(required), required).toMatchObject({ failed: 0 });
      expect(result.scenarios.get(required)!.passed, required).toBeGreaterThan(0);
    }
    expect(result.total?.failed).toBe(0);
  });
});
