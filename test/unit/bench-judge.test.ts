/**
 * The bench's judge (bench/lib/judge.mjs) on deliberately broken results: a failed repetition, an
 * error response counted as speed, a missing figure, a missed target — each fails the run and says
 * why, so `npm run bench` cannot print figures and exit 0 when what it measures is broken (the exit
 * code itself through bench/rejudge.mjs, which exits as the runner does). Also the ratios from
 * alternating windows of a pair (median of per-pair ratios, their spread, the A/B order and the
 * equal warm-up), the rotation of the system order and the body check used over sockets.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// bench/ is plain JavaScript with its own package; its modules are loaded by URL (untyped) and
// given the few types this test needs.
type Verdict = { key: string; verdict: string; measured: number | null; reason?: string };
type Judged = { ok: boolean; verdicts: Verdict[]; problems: string[] };
const load = (path: string) => import(new URL(`../../bench/lib/${path}`, import.meta.url).href);
const { judge, SCENARIO_GROUPS, MIN_PAIRS } = (await load("judge.mjs")) as {
  judge(scenarios: object, figures: Record<string, number | null>, ran?: string[]): Judged;
  SCENARIO_GROUPS: Record<string, string[]>;
  MIN_PAIRS: number;
};
type Spread = {
  median: number | null;
  q1: number | null;
  q3: number | null;
  min: number | null;
  max: number | null;
  pairs: number;
};
const { computeFigures, computeSpreads, pairsFor, TARGETS } = (await load("figures.mjs")) as {
  computeFigures(scenarios: object): Record<string, number | null>;
  computeSpreads(scenarios: object): Record<string, Spread>;
  pairsFor(scenario: string): [string, string][];
  TARGETS: [string, string, number, string][];
};
const { ratioSpread } = (await load("stats.mjs")) as { ratioSpread(values: (number | null)[]): Spread };
const { printVerdict } = (await load("verdict.mjs")) as {
  printVerdict(run: object, print?: (line: string) => void): number;
};
type Worker = { warm(ms: number): Promise<object>; window(ms: number): Promise<object>; stop(): Promise<void> };
const { alternate } = (await load("pairs.mjs")) as {
  alternate(options: {
    a: string;
    b: string;
    pairs: number;
    windowMs: number;
    warmupMs: number;
    start(system: string): Promise<Worker>;
  }): Promise<{ failedResponses: Record<string, number>; windows: { first: string; a: object; b: object }[] }>;
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
  "sdk-v2": 9_000,
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

/** One measured window of an alternating pair. */
const win = (rps: number, p99 = 1, failedResponses = 0) => ({ requests: rps / 2, rps, p99, failedResponses });
/** `n` alternating windows of a and b, each side at its `rpsOf` (the first of each pair alternating). */
function pairOf(a: string, b: string, rpsOf: Record<string, number>, n = 8) {
  const windows = Array.from({ length: n }, (_, i) => ({
    first: i % 2 === 0 ? "a" : "b",
    a: win(rpsOf[a]!),
    b: win(rpsOf[b]!),
  }));
  return { a, b, windowMs: 500, warmupMs: 1000, failedResponses: { [a]: 0, [b]: 0 }, windows };
}
/** Every pair the figures of `scenario` compare, at the rates of `rpsOf`. */
const pairsOf = (scenario: string, rpsOf: Record<string, number>) =>
  Object.fromEntries(pairsFor(scenario).map(([a, b]) => [`${a}/${b}`, pairOf(a, b, rpsOf)]));
const REDIS_RPS = { "mcp-h3": 40_000, "mcp-h3-redis": 24_000 };
/** Sets side `side` of every window of a pair to `rps`. */
function setRps(pair: { windows: Record<string, any>[] }, side: "a" | "b", rps: number) {
  for (const w of pair.windows) w[side] = win(rps);
}

/** The scenarios of a run whose every figure meets its target, with `change` applied. */
function healthyScenarios(change: (scenarios: Record<string, any>) => void = () => {}) {
  const scenarios: Record<string, any> = {
    inproc_modern: {
      raw: raw(inprocRun, ["mcp-h3-auth"]),
      pairs: pairsOf("inproc_modern", INPROC_RPS),
      failures: [],
    },
    inproc_legacy: { raw: raw(inprocRun), pairs: pairsOf("inproc_legacy", INPROC_RPS), failures: [] },
    sockets: { raw: raw(socketRun), pairs: pairsOf("sockets", SOCKET_RPS), failures: [] },
    memory: {
      raw: { "mcp-h3": [{}, {}, {}], tmcp: [{}, {}, {}] },
      failures: [],
      heapPerSession: mcp(620),
      rssPerSession: mcp(1_800),
      heapAfterVsCold: mcp(1.04),
    },
    streaming: { raw: raw(() => ({})), failures: [], perSecond: mcp(260_000) },
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
      pairs: pairsOf("redis_legacy", REDIS_RPS),
      failures: [],
    },
    redis_notify: {
      raw: { "mcp-h3-redis": [0, 1, 2].map(() => ({ failedResponses: 0, p99: 2.5 })) },
      failures: [],
      p99: { "mcp-h3-redis": { median: 2.5 } },
    },
    mrtr: {
      raw: { "mcp-h3": [0, 1, 2].map(() => ({ failedResponses: 0 })) },
      failures: [],
      mrtrVsToolsCall: mcp(0.4),
      pairs: {
        "mrtr/plain": {
          a: "mrtr",
          b: "plain",
          windows: [0, 1, 2, 3, 4, 5].map((i) => ({
            first: "a",
            a: { callsPerS: 4_000 + i },
            b: { callsPerS: 10_000 },
          })),
        },
      },
    },
    tasks: {
      raw: { "mcp-h3": [0, 1, 2].map(() => ({ failedResponses: 0 })) },
      failures: [],
      pairs: {
        "task_get/plain": callsPairOf("task_get", "plain", 9_000, 10_000),
        "task_roundtrip/plain": callsPairOf("task_roundtrip", "plain", 4_500, 10_000),
      },
    },
    tasks_memory: {
      raw: { "mcp-h3": [0, 1, 2].map(() => ({ failedResponses: 0 })) },
      failures: [],
      heapPerTask: mcp(720),
    },
    tasks_redis: {
      raw: { "mcp-h3": [0, 1, 2].map(() => ({ failedResponses: 0 })) },
      failures: [],
      pairs: { "redis/memory": callsPairOf("redis", "memory", 6_000, 10_000) },
    },
  };
  change(scenarios);
  return scenarios;
}

/** Six alternating windows of two loads of one process (calls/s), as the tasks scenarios write them. */
function callsPairOf(a: string, b: string, aPerS: number, bPerS: number) {
  const windows = [0, 1, 2, 3, 4, 5].map((i) => ({
    first: i % 2 === 0 ? "a" : "b",
    a: { calls: aPerS / 2, callsPerS: aPerS },
    b: { calls: bPerS / 2, callsPerS: bPerS },
  }));
  return { a, b, windowMs: 500, warmupMs: 500, windows };
}

/** The judged run of `healthyScenarios(change)`. */
function healthy(change: (scenarios: Record<string, any>) => void = () => {}) {
  const scenarios = healthyScenarios(change);
  return judge(scenarios, computeFigures(scenarios));
}
healthy.scenarios = healthyScenarios;

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
    const slow = healthy((s) => setRps(s.inproc_modern.pairs["mcp-h3-auth/mcp-h3"], "a", 80_000));
    expect(verdictOf(slow, "auth_vs_no_auth").verdict).toBe("NOT met");
    expect(slow.ok).toBe(false);
  });

  it("judges the Redis figures: Redis stores against memory stores in the same repetitions, and the cross-instance p99", () => {
    const judged = healthy();
    expect(verdictOf(judged, "redis_legacy_vs_memory")).toMatchObject({ verdict: "met", measured: 0.6 });
    expect(verdictOf(judged, "cross_instance_notify_p99_ms")).toMatchObject({ verdict: "met", measured: 2.5 });

    const slow = healthy((s) => {
      setRps(s.redis_legacy.pairs["mcp-h3-redis/mcp-h3"], "a", 16_000);
      s.redis_notify.p99 = { "mcp-h3-redis": { median: 12 } };
    });
    expect(slow.ok).toBe(false);
    expect(slow.problems).toEqual([
      "redis_legacy_vs_memory: 0.4 short of 0.5 by 20.0%",
      "cross_instance_notify_p99_ms: 12 over 5 by 140.0%",
    ]);

    // Errors answered fast through Redis are no speed; a notification that never arrived voids the p99.
    const broken = healthy((s) => {
      const pair = s.redis_legacy.pairs["mcp-h3-redis/mcp-h3"];
      pair.windows[0].a = win(90_000, 1, 12);
      pair.failedResponses["mcp-h3-redis"] = 12;
      s.redis_notify.raw["mcp-h3-redis"][2] = { failedResponses: 1, p99: 1 };
    });
    expect(verdictOf(broken, "redis_legacy_vs_memory").verdict).toBe("void");
    expect(verdictOf(broken, "cross_instance_notify_p99_ms").verdict).toBe("void");
    expect(broken.ok).toBe(false);

    const left = healthy((s) => delete s.redis_notify);
    expect(left.problems).toContain("redis_notify: did not run");
  });

  it("judges the tasks figures, each against its baseline of the same process; a wrong answer voids them", () => {
    const judged = healthy();
    expect(verdictOf(judged, "task_get_vs_call")).toMatchObject({ verdict: "met", measured: 0.9 });
    expect(verdictOf(judged, "task_roundtrip_vs_call")).toMatchObject({ verdict: "met", measured: 0.45 });
    expect(verdictOf(judged, "task_heap_bytes")).toMatchObject({ verdict: "met", measured: 720 });
    expect(verdictOf(judged, "redis_task_get_vs_memory")).toMatchObject({ verdict: "met", measured: 0.6 });

    const slow = healthy((s) => {
      s.tasks.pairs["task_roundtrip/plain"] = callsPairOf("task_roundtrip", "plain", 1_000, 10_000);
      s.tasks_memory.heapPerTask = mcp(2_500);
      s.tasks_redis.pairs["redis/memory"] = callsPairOf("redis", "memory", 4_000, 10_000);
    });
    expect(slow.problems).toEqual([
      "task_roundtrip_vs_call: 0.1 short of 0.15 by 33.3%",
      "task_heap_bytes: 2500 over 1024 by 144.1%",
      "redis_task_get_vs_memory: 0.4 short of 0.45 by 11.1%",
    ]);

    const broken = healthy((s) => {
      s.tasks.raw["mcp-h3"][1] = { failedResponses: 3 };
      s.tasks_memory.failures.push({ system: "mcp-h3", rep: 0, message: "the store holds 9999 tasks, not 10200" });
    });
    expect(verdictOf(broken, "task_get_vs_call").verdict).toBe("void");
    expect(verdictOf(broken, "task_roundtrip_vs_call").verdict).toBe("void");
    expect(verdictOf(broken, "task_heap_bytes").verdict).toBe("void");
    expect(verdictOf(broken, "redis_task_get_vs_memory").verdict).toBe("met");
    expect(broken.ok).toBe(false);

    const only = judge(healthy.scenarios(), computeFigures(healthy.scenarios()), SCENARIO_GROUPS.tasks);
    expect(only.ok).toBe(true);
    expect(verdictOf(only, "modern_vs_bare").verdict).toBe("not run");
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
    expect(verdictOf(inproc, "legacy_vs_bare").verdict).toBe("void");
    expect(inproc.problems).toContain(
      "inproc_legacy: mcp-h3 repetition 1 got 250000 error, non-2xx or unexpected responses",
    );
    // The same regression in the alternating windows the figure comes from.
    const windows = healthy((s) => {
      const pair = s.inproc_legacy.pairs["mcp-h3/bare-h3"];
      for (const w of pair.windows) w.a = win(300_000, 0.5, 150_000);
      pair.failedResponses["mcp-h3"] = 1_200_000;
    });
    expect(verdictOf(windows, "legacy_vs_bare")).toMatchObject({ verdict: "void", measured: 3 });
    expect(windows.problems).toContain(
      "inproc_legacy: mcp-h3 got 1200000 error, non-2xx or unexpected responses in the pair mcp-h3/bare-h3",
    );
    expect(windows.ok).toBe(false);

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
      setRps(s.inproc_modern.pairs["mcp-h3/bare-h3"], "a", 80_000);
    });
    expect(judged.ok).toBe(false);
    expect(verdictOf(judged, "modern_vs_bare")).toMatchObject({
      verdict: "NOT met",
      measured: 0.8,
      reason: "short of 0.85 by 5.9%",
    });
    expect(judged.problems).toEqual([
      "modern_vs_bare: 0.8 short of 0.85 by 5.9%",
      "heap_after_sessions_vs_baseline: 1.109 over 1.05 by 5.6%",
    ]);
  });

  it("judges on the unrounded figure: 0.8496 rounds to 0.85 but misses ≥ 0.85", () => {
    const judged = healthy((s) => setRps(s.inproc_modern.pairs["mcp-h3/bare-h3"], "a", 84_960));
    expect(verdictOf(judged, "modern_vs_bare")).toMatchObject({ verdict: "NOT met", measured: 0.85 });
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

describe("bench ratios from alternating windows of a pair", () => {
  it("takes the median of the per-pair ratios and reports their quartiles, min, max and count", () => {
    expect(ratioSpread([0.9, 1.1, 1, null, 0.95, 1.05])).toEqual({
      median: 1,
      q1: 0.95,
      q3: 1.05,
      min: 0.9,
      max: 1.1,
      pairs: 5,
    });
    expect(ratioSpread([null])).toMatchObject({ median: null, pairs: 0 });
  });

  it("judges a figure on the windows of its pair: one pair on a stalled machine shows in the spread, not in the median", () => {
    const judged = healthy((s) => {
      // Seven pairs at 0.95, one on a stalled machine where mcp-h3 got a tenth of the CPU.
      const pair = s.inproc_modern.pairs["mcp-h3/bare-h3"];
      pair.windows[3].a = win(9_500);
    });
    expect(verdictOf(judged, "modern_vs_bare")).toMatchObject({ verdict: "met", measured: 0.95 });
    const spread = computeSpreads(
      healthy.scenarios((s) => (s.inproc_modern.pairs["mcp-h3/bare-h3"].windows[3].a = win(9_500))),
    ).modern_vs_bare!;
    expect(spread).toMatchObject({ median: 0.95, q3: 0.95, min: 0.095, max: 0.95, pairs: 8 });
  });

  it("writes each windowed figure's spread, and only the windows count: per-repetition runs alone give no figure", () => {
    const scenarios: Record<string, any> = {
      inproc_modern: {
        raw: raw(inprocRun, ["mcp-h3-auth"]),
        pairs: { "mcp-h3-auth/mcp-h3": pairOf("mcp-h3-auth", "mcp-h3", INPROC_RPS) },
        failures: [],
      },
    };
    const ratios = [0.8, 0.9, 0.94, 0.95, 0.96, 1.0, 1.1];
    scenarios.inproc_modern.pairs["mcp-h3-auth/mcp-h3"].windows = ratios.map((r) => ({
      first: "a",
      a: win(100_000 * r),
      b: win(100_000),
    }));
    const spreads = computeSpreads(scenarios);
    expect(spreads.auth_vs_no_auth).toMatchObject({ min: 0.8, max: 1.1, pairs: 7 });
    expect(spreads.auth_vs_no_auth!.median).toBeCloseTo(0.95, 10);
    expect(spreads.auth_vs_no_auth!.q1).toBeCloseTo(0.92, 10);
    expect(spreads.auth_vs_no_auth!.q3).toBeCloseTo(0.98, 10);
    // modern_vs_bare has its repetitions (raw) but no windows of mcp-h3 against bare: missing.
    expect(spreads.modern_vs_bare!.pairs).toBe(0);
    const judged = judge(scenarios, computeFigures(scenarios), ["inproc_modern"]);
    expect(verdictOf(judged, "auth_vs_no_auth").verdict).toBe("met");
    expect(verdictOf(judged, "modern_vs_bare")).toMatchObject({ verdict: "missing", measured: null });
    expect(judged.ok).toBe(false);
  });

  it(`calls a figure of fewer than ${MIN_PAIRS} pairs missing`, () => {
    const judged = healthy((s) => {
      const pair = s.sockets.pairs["mcp-h3/bare-h3"];
      pair.windows = pair.windows.slice(0, MIN_PAIRS - 1);
    });
    expect(verdictOf(judged, "sockets_vs_bare")).toMatchObject({
      verdict: "missing",
      reason: `${MIN_PAIRS - 1} pairs for sockets_vs_bare, fewer than ${MIN_PAIRS}`,
    });
    expect(judged.ok).toBe(false);
  });

  it("voids the figures of a pair that failed, naming the system and the pair", () => {
    const judged = healthy((s) => {
      delete s.sockets.pairs["mcp-h3/sdk-v2"];
      s.sockets.failures.push({ system: "sdk-v2", pair: "mcp-h3/sdk-v2", rep: 0, message: "serve.mjs exited 1\n" });
    });
    expect(judged.problems[0]).toBe("sockets: sdk-v2 in the pair mcp-h3/sdk-v2 failed: serve.mjs exited 1");
    expect(verdictOf(judged, "sockets_vs_sdk_v2").verdict).toBe("void");
    expect(judged.ok).toBe(false);
  });

  it("voids a socket pair in which no response body of a side was checked", () => {
    const checked = healthy((s) => {
      const pair = s.sockets.pairs["mcp-h3/sdk-v2"];
      for (const w of pair.windows) {
        Object.assign(w.a, { sampled: 20 });
        Object.assign(w.b, { sampled: 0 });
      }
      pair.windows[5].b.sampled = 1;
    });
    expect(verdictOf(checked, "sockets_vs_sdk_v2").verdict).toBe("met");
    const unchecked = healthy((s) => {
      for (const w of s.sockets.pairs["mcp-h3/sdk-v2"].windows) Object.assign(w.b, { sampled: 0 });
    });
    expect(unchecked.problems[0]).toBe("sockets: sdk-v2 had no body checked in the pair mcp-h3/sdk-v2");
    expect(verdictOf(unchecked, "sockets_vs_sdk_v2").verdict).toBe("void");
  });

  it("lists the pairs each scenario alternates, once each (p99_vs_bare shares modern_vs_bare's windows)", () => {
    expect(pairsFor("inproc_modern")).toEqual([
      ["mcp-h3", "bare-h3"],
      ["mcp-h3", "sdk-v2"],
      ["mcp-h3", "tmcp"],
      ["mcp-h3-auth", "mcp-h3"],
    ]);
    expect(pairsFor("inproc_legacy")).toEqual([["mcp-h3", "bare-h3"]]);
    expect(pairsFor("sockets")).toEqual([
      ["mcp-h3", "bare-h3"],
      ["mcp-h3", "sdk-v2"],
    ]);
    expect(pairsFor("redis_legacy")).toEqual([
      ["mcp-h3-redis", "mcp-h3"],
      ["mcp-h3-redis-cluster", "mcp-h3"],
    ]);
    expect(verdictOf(healthy(), "p99_vs_bare").measured).toBe(1);
    expect(computeSpreads(healthy.scenarios()).mrtr_vs_tools_call).toMatchObject({ pairs: 6 });
  });

  it("alternates A, B then B, A, warms both alike before the first window, and stops both even when one fails", async () => {
    const calls: string[] = [];
    const stopped: string[] = [];
    const start = async (system: string): Promise<Worker> => {
      calls.push(`start ${system}`);
      let windows = 0;
      return {
        warm: async (ms) => (calls.push(`warm ${system} ${ms}`), { failedResponses: 0 }),
        window: async (ms) => {
          calls.push(`window ${system} ${ms}`);
          if (system === "B" && ++windows === 3) throw new Error("B exited 1");
          return { rps: system === "A" ? 900 : 1000, failedResponses: system === "A" ? 1 : 0 };
        },
        stop: async () => void stopped.push(system),
      };
    };
    const pair = await alternate({ a: "A", b: "B", pairs: 2, windowMs: 500, warmupMs: 1000, start });
    expect(calls).toEqual([
      "start A",
      "start B",
      "warm A 500",
      "warm B 500",
      "warm B 500",
      "warm A 500",
      "window A 500",
      "window B 500",
      "window B 500",
      "window A 500",
    ]);
    expect(pair.windows.map((w) => w.first)).toEqual(["a", "b"]);
    expect(pair.failedResponses).toEqual({ A: 2, B: 0 });
    expect(stopped.sort()).toEqual(["A", "B"]);

    stopped.length = 0;
    const failed = alternate({ a: "A", b: "B", pairs: 3, windowMs: 500, warmupMs: 1000, start });
    await expect(failed).rejects.toMatchObject({ message: "B exited 1", system: "B" });
    expect(stopped.sort()).toEqual(["A", "B"]);
  });
});

describe("bench exit code", () => {
  it("prints each target with its spread and returns 1 on a miss, 0 only when nothing is wrong", () => {
    const lines: string[] = [];
    const run = (judged: Judged) => ({ verdict: judged, targets: judged.verdicts, figures: {}, spreads: {} });
    expect(printVerdict(run(healthy()), (line) => lines.push(line))).toBe(0);
    const miss = healthy((s) => setRps(s.inproc_modern.pairs["mcp-h3-auth/mcp-h3"], "a", 80_000));
    expect(printVerdict(run(miss), (line) => lines.push(line))).toBe(1);
    expect(lines.at(-1)).toBe("  - auth_vs_no_auth: 0.842 short of 0.88 by 4.3%");
    // A verdict that says ok while listing a problem is not trusted.
    expect(printVerdict(run({ ...healthy(), problems: ["x"] }), () => {})).toBe(1);
  });

  it("bench/rejudge.mjs, which exits as the runner does, exits 1 on a results.json with a miss and 0 on one without", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-h3-bench-judge-"));
    const script = fileURLToPath(new URL("../../bench/rejudge.mjs", import.meta.url));
    const rejudge = (scenarios: object) => {
      const file = join(dir, "results.json");
      writeFileSync(file, JSON.stringify({ meta: {}, scenarios }));
      return spawnSync(process.execPath, [script, file], { encoding: "utf8" });
    };
    try {
      const ok = rejudge(healthy.scenarios());
      expect(ok.stdout).toContain("every target met");
      expect(ok.status).toBe(0);
      const missed = rejudge(
        healthy.scenarios((s) => setRps(s.redis_legacy.pairs["mcp-h3-redis/mcp-h3"], "a", 16_000)),
      );
      expect(missed.stdout).toContain("redis_legacy_vs_memory: 0.4 short of 0.5 by 20.0%");
      expect(missed.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
