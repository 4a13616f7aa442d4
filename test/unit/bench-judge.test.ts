/**
 * The bench's judge (bench/lib/judge.mjs) on deliberately broken results: a failed repetition, an
 * error response counted as speed, a missing figure, a missed target — each fails the run and says
 * why, so `npm run bench` cannot print figures and exit 0 when what it measures is broken. Also the
 * rotation of the system order and the body check used over sockets.
 */
import { describe, expect, it } from "vitest";

// bench/ is plain JavaScript with its own package; its modules are loaded by URL (untyped) and
// given the few types this test needs.
type Verdict = { key: string; verdict: string; measured: number | null; reason?: string };
type Judged = { ok: boolean; verdicts: Verdict[]; problems: string[] };
const load = (path: string) => import(new URL(`../../bench/lib/${path}`, import.meta.url).href);
const { judge, SCENARIO_GROUPS } = (await load("judge.mjs")) as {
  judge(scenarios: object, figures: Record<string, number | null>, ran?: string[]): Judged;
  SCENARIO_GROUPS: Record<string, string[]>;
};
const { computeFigures, TARGETS } = (await load("figures.mjs")) as {
  computeFigures(scenarios: object): Record<string, number | null>;
  TARGETS: [string, string, number, string][];
};
const { rotation, SYSTEMS } = (await load("systems.mjs")) as {
  rotation(systems: string[], rep: number): string[];
  SYSTEMS: string[];
};
const { isEchoAnswer, ECHO_TEXT } = (await load("protocol.mjs")) as {
  isEchoAnswer(text: string): boolean;
  ECHO_TEXT: string;
};

type Run = Record<string, unknown> | null;
type Raw = Record<string, Run[]>;

/** Three repetitions of every system (and of `extra` ones), each built by `make(system, rep)`. */
function raw(make: (system: string, rep: number) => Run, extra: string[] = []): Raw {
  return Object.fromEntries(
    [...SYSTEMS, ...extra].map((system) => [system, [0, 1, 2].map((rep) => make(system, rep))]),
  );
}

const INPROC_RPS: Record<string, number> = {
  "bare-h3": 100_000,
  "mcp-h3": 95_000,
  "mcp-h3-auth": 90_000,
  "sdk-v2": 10_000,
  tmcp: 20_000,
  "mcp-handler": 8_000,
};
const inprocRun = (system: string): Run => ({
  failedResponses: 0,
  results: { c1: { rps: INPROC_RPS[system]! / 4, p99: 0.1 }, c32: { rps: INPROC_RPS[system]!, p99: 1 } },
});
const SOCKET_RPS: Record<string, number> = { "bare-h3": 20_000, "mcp-h3": 19_000, "sdk-v2": 1_000, tmcp: 5_000 };
const socketRun = (system: string): Run => ({ rps: SOCKET_RPS[system] ?? 900, failedResponses: 0, sampled: 100 });
const mcp = (median: number) => ({ "mcp-h3": { median } });
/** A legacy in-process run (the Redis scenario) with `rps` at c=32. */
const redisRun = (rps: number): Run => ({
  failedResponses: 0,
  results: { c1: { rps: rps / 4, p99: 0.2 }, c32: { rps, p99: 2 } },
});

/** A run whose every figure meets its target, with `change` applied to its scenarios. */
function healthy(change: (scenarios: Record<string, any>) => void = () => {}) {
  const scenarios: Record<string, any> = {
    inproc_modern: { raw: raw(inprocRun, ["mcp-h3-auth"]), failures: [] },
    inproc_legacy: { raw: raw(inprocRun), failures: [] },
    sockets: { raw: raw(socketRun), failures: [] },
    memory: {
      raw: { "mcp-h3": [{}, {}, {}], tmcp: [{}, {}, {}] },
      failures: [],
      heapPerSession: mcp(620),
      rssPerSession: mcp(3_600),
      heapAfterVsCold: mcp(1.04),
    },
    streaming: { raw: raw(() => ({})), failures: [], perSecond: mcp(220_000) },
    bundle: {
      bundles: {
        "mcp-h3": { gzipBytes: 25_000 },
        "mcp-h3+zod": { gzipBytes: 49_600 },
        "sdk-v2": { gzipBytes: 85_100 },
      },
      failures: [],
    },
    startup: { raw: raw(() => ({})), failures: [], importMs: mcp(4.4), firstRequestMs: mcp(4.2) },
    redis_legacy: {
      raw: { "mcp-h3": [0, 1, 2].map(() => redisRun(40_000)), "mcp-h3-redis": [0, 1, 2].map(() => redisRun(24_000)) },
      failures: [],
    },
    redis_notify: {
      raw: { "mcp-h3-redis": [0, 1, 2].map(() => ({ failedResponses: 0, p99: 2.5 })) },
      failures: [],
      p99: { "mcp-h3-redis": { median: 2.5 } },
    },
    mrtr: { raw: { "mcp-h3": [0, 1, 2].map(() => ({ failedResponses: 0 })) }, failures: [], mrtrVsToolsCall: mcp(0.4) },
  };
  change(scenarios);
  return judge(scenarios, computeFigures(scenarios));
}

const verdictOf = (judged: Judged, key: string) => judged.verdicts.find((v) => v.key === key)!;

describe("bench judge", () => {
  it("passes a run where every target is met and nothing failed", () => {
    const judged = healthy();
    expect(judged.problems).toEqual([]);
    expect(judged.ok).toBe(true);
    expect(judged.verdicts.map((v) => v.verdict)).toEqual(TARGETS.map(() => "met"));
    expect(verdictOf(judged, "modern_vs_bare").measured).toBe(0.95);
    expect(verdictOf(judged, "bundle_zod_vs_sdk_v2").measured).toBe(0.583);
  });

  it("fails the run on a failed repetition, and voids the figures that use that system", () => {
    const judged = healthy((s) => {
      s.inproc_modern.raw["mcp-h3"][1] = null;
      s.inproc_modern.failures.push({ system: "mcp-h3", rep: 1, message: "inproc.mjs exited 1\nstack" });
    });
    expect(judged.ok).toBe(false);
    expect(judged.problems[0]).toBe("inproc_modern: mcp-h3 repetition 2 failed: inproc.mjs exited 1");
    for (const key of ["modern_vs_bare", "modern_vs_sdk_v2", "modern_vs_tmcp", "p99_vs_bare"]) {
      expect(verdictOf(judged, key).verdict, key).toBe("void");
    }
    expect(verdictOf(judged, "legacy_vs_bare").verdict).toBe("met");
  });

  it("judges auth_vs_no_auth on the auth variant against mcp-h3 in the same repetitions", () => {
    expect(verdictOf(healthy(), "auth_vs_no_auth").measured).toBe(0.947);
    const slow = healthy((s) => {
      for (const run of s.inproc_modern.raw["mcp-h3-auth"]) run.results.c32.rps = 80_000;
    });
    expect(verdictOf(slow, "auth_vs_no_auth").verdict).toBe("NOT met");
    expect(slow.ok).toBe(false);
  });

  it("judges the Redis figures: Redis stores against memory stores in the same repetitions, and the cross-instance p99", () => {
    const judged = healthy();
    expect(verdictOf(judged, "redis_legacy_vs_memory")).toMatchObject({ verdict: "met", measured: 0.6 });
    expect(verdictOf(judged, "cross_instance_notify_p99_ms")).toMatchObject({ verdict: "met", measured: 2.5 });

    const slow = healthy((s) => {
      s.redis_legacy.raw["mcp-h3-redis"] = [0, 1, 2].map(() => redisRun(16_000));
      s.redis_notify.p99 = { "mcp-h3-redis": { median: 12 } };
    });
    expect(slow.ok).toBe(false);
    expect(slow.problems).toEqual([
      "redis_legacy_vs_memory: 0.4 short of 0.5 by 20.0%",
      "cross_instance_notify_p99_ms: 12 over 10 by 20.0%",
    ]);

    // Errors answered fast through Redis are no speed; a notification that never arrived voids the p99.
    const broken = healthy((s) => {
      s.redis_legacy.raw["mcp-h3-redis"][0] = { ...redisRun(90_000), failedResponses: 12 };
      s.redis_notify.raw["mcp-h3-redis"][2] = { failedResponses: 1, p99: 1 };
    });
    expect(verdictOf(broken, "redis_legacy_vs_memory").verdict).toBe("void");
    expect(verdictOf(broken, "cross_instance_notify_p99_ms").verdict).toBe("void");
    expect(broken.ok).toBe(false);

    const left = healthy((s) => delete s.redis_notify);
    expect(left.problems).toContain("redis_notify: did not run");
  });

  it("fails the run on a failed repetition of a peer that no figure uses", () => {
    const judged = healthy((s) => {
      s.streaming.failures.push({ system: "mcp-handler", rep: 0, message: "got 3/10000 notifications" });
    });
    expect(judged.ok).toBe(false);
    expect(judged.problems).toEqual(["streaming: mcp-handler repetition 1 failed: got 3/10000 notifications"]);
  });

  it("voids a speed figure measured on error responses, in-process and over sockets", () => {
    // A regression that answers errors fast: more requests per second, every one an error.
    const inproc = healthy((s) => {
      s.inproc_legacy.raw["mcp-h3"] = [0, 1, 2].map(() => ({
        failedResponses: 250_000,
        results: { c1: { rps: 50_000, p99: 0.1 }, c32: { rps: 300_000, p99: 0.5 } },
      }));
    });
    expect(inproc.ok).toBe(false);
    expect(verdictOf(inproc, "legacy_vs_bare")).toMatchObject({ verdict: "void", measured: 3 });
    expect(inproc.problems).toContain(
      "inproc_legacy: mcp-h3 repetition 1 got 250000 error, non-2xx or unexpected responses",
    );

    const sockets = healthy((s) => (s.sockets.raw["sdk-v2"][2] = { rps: 1_000, failedResponses: 1, sampled: 100 }));
    expect(sockets.ok).toBe(false);
    expect(verdictOf(sockets, "sockets_vs_sdk_v2").verdict).toBe("void");
    expect(verdictOf(sockets, "sockets_vs_bare").verdict).toBe("met");
  });

  it("fails the run on a missing figure or a scenario that did not run", () => {
    const missing = healthy((s) => delete s.streaming.perSecond);
    expect(missing.ok).toBe(false);
    expect(verdictOf(missing, "progress_per_s")).toMatchObject({ verdict: "missing", measured: null });
    expect(missing.problems).toEqual(["progress_per_s: missing (no data for progress_per_s)"]);

    const absent = healthy((s) => delete s.memory);
    expect(absent.problems).toContain("memory: did not run");
    expect(verdictOf(absent, "session_heap_bytes").verdict).toBe("missing");
  });

  it("fails the run on a missed target, saying by how much", () => {
    const judged = healthy((s) => {
      s.memory.heapAfterVsCold = mcp(1.109);
      s.inproc_modern.raw["mcp-h3"] = [0, 1, 2].map(() => ({
        failedResponses: 0,
        results: { c1: { rps: 20_000, p99: 0.1 }, c32: { rps: 85_000, p99: 1 } },
      }));
    });
    expect(judged.ok).toBe(false);
    expect(verdictOf(judged, "modern_vs_bare")).toMatchObject({
      verdict: "NOT met",
      measured: 0.85,
      reason: "short of 0.9 by 5.6%",
    });
    expect(judged.problems).toEqual([
      "modern_vs_bare: 0.85 short of 0.9 by 5.6%",
      "heap_after_sessions_vs_baseline: 1.109 over 1.05 by 5.6%",
    ]);
  });

  it("judges on the unrounded figure: 0.8996 rounds to 0.9 but misses ≥ 0.9", () => {
    const judged = healthy((s) => {
      s.inproc_modern.raw["mcp-h3"] = [0, 1, 2].map(() => ({
        failedResponses: 0,
        results: { c1: { rps: 20_000, p99: 0.1 }, c32: { rps: 89_960, p99: 1 } },
      }));
    });
    expect(verdictOf(judged, "modern_vs_bare")).toMatchObject({ verdict: "NOT met", measured: 0.9 });
  });

  it("reports the targets of scenarios left out by --only as not run, without failing", () => {
    const scenarios = { bundle: { bundles: { "mcp-h3": { gzipBytes: 25_000 }, "sdk-v2": { gzipBytes: 85_100 } } } };
    const judged = judge(scenarios, computeFigures(scenarios), SCENARIO_GROUPS.bundle);
    expect(verdictOf(judged, "modern_vs_bare").verdict).toBe("not run");
    expect(verdictOf(judged, "bundle_vs_sdk_v2").verdict).toBe("met");
    // The zod bundle is part of the bundle scenario: without it, its figure is missing.
    expect(judged.problems).toEqual(["bundle_zod_vs_sdk_v2: missing (no data for bundle_zod_vs_sdk_v2)"]);
  });
});

describe("bench harness helpers", () => {
  it("rotates the system order: every system takes every position once in as many repetitions", () => {
    const orders = SYSTEMS.map((_, rep) => rotation(SYSTEMS, rep));
    expect(orders[0]).toEqual(SYSTEMS);
    expect(orders[1]![0]).toBe(SYSTEMS[1]);
    for (let position = 0; position < SYSTEMS.length; position++) {
      expect(new Set(orders.map((order) => order[position])).size).toBe(SYSTEMS.length);
    }
    for (const order of orders) expect([...order].sort()).toEqual([...SYSTEMS].sort());
  });

  it("accepts only a successful echo answer as the body of a socket response", () => {
    const ok = { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: ECHO_TEXT }] } };
    expect(isEchoAnswer(JSON.stringify(ok))).toBe(true);
    expect(isEchoAnswer(`event: message\ndata: ${JSON.stringify(ok)}\n\n`)).toBe(true);
    const error = { jsonrpc: "2.0", id: 1, error: { code: -32602, message: `bad: ${ECHO_TEXT}` } };
    expect(isEchoAnswer(JSON.stringify(error))).toBe(false);
    const toolError = { ...ok, result: { ...ok.result, isError: true } };
    expect(isEchoAnswer(JSON.stringify(toolError))).toBe(false);
    expect(isEchoAnswer("")).toBe(false);
  });
});
