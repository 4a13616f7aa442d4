/** The 14 headline figures (all from one run) and the targets for them. */
import { median, round } from "./stats.mjs";

/** Median over repetitions of run[a][rep] / run[b][rep] (paired: same repetition, adjacent in time). */
function paired(raw, a, b, pick) {
  if (!raw?.[a] || !raw?.[b]) return null;
  const ratios = raw[a].map((run, rep) => {
    const other = raw[b][rep];
    if (!run || !other) return null;
    const x = pick(run);
    const y = pick(other);
    return x !== null && y ? x / y : null;
  });
  return median(ratios);
}

const c32rps = (run) => run.results.c32.rps;
const c32p99 = (run) => run.results.c32.p99;

/** The figures, unrounded: targets are judged on these, so rounding can never turn a miss into a pass. */
export function computeFigures(s) {
  const modern = s.inproc_modern?.raw;
  const legacy = s.inproc_legacy?.raw;
  const sockets = s.sockets?.raw;
  const mcp = "mcp-h3";
  const f = {
    modern_vs_bare: paired(modern, mcp, "bare-h3", c32rps),
    modern_vs_sdk_v2: paired(modern, mcp, "sdk-v2", c32rps),
    modern_vs_tmcp: paired(modern, mcp, "tmcp", c32rps),
    legacy_vs_bare: paired(legacy, mcp, "bare-h3", c32rps),
    p99_vs_bare: paired(modern, mcp, "bare-h3", c32p99),
    sockets_vs_bare: paired(sockets, mcp, "bare-h3", (r) => r.rps),
    sockets_vs_sdk_v2: paired(sockets, mcp, "sdk-v2", (r) => r.rps),
    session_bytes: s.memory?.rssPerSession?.[mcp]?.median ?? null,
    rss_after_sessions_vs_baseline: s.memory?.rssAfterVsBaseline?.[mcp]?.median ?? null,
    progress_per_s: s.streaming?.perSecond?.[mcp]?.median ?? null,
    bundle_gzip_kb: s.bundle?.[mcp] ? s.bundle[mcp].gzipBytes / 1000 : null,
    bundle_vs_sdk_v2:
      s.bundle?.[mcp] && s.bundle["sdk-v2"] ? s.bundle[mcp].gzipBytes / s.bundle["sdk-v2"].gzipBytes : null,
    import_ms: s.startup?.importMs?.[mcp]?.median ?? null,
    first_request_ms: s.startup?.firstRequestMs?.[mcp]?.median ?? null,
  };
  return f;
}

/** The figures as reported: ratios to 3 decimals, the bundle to the byte (KB of 1000 B), counts whole. */
export function roundFigures(f) {
  const digits = { session_bytes: 0, progress_per_s: 0 };
  return Object.fromEntries(Object.entries(f).map(([key, value]) => [key, round(value, digits[key] ?? 3)]));
}

/** [key, comparison, bound, what it is] — the targets. */
export const TARGETS = [
  ["modern_vs_bare", ">=", 0.85, "modern tools/call in-process c=32, × bare h3"],
  ["modern_vs_sdk_v2", ">=", 3.5, "modern tools/call in-process c=32, × SDK v2"],
  ["modern_vs_tmcp", ">=", 2, "modern tools/call in-process c=32, × tmcp"],
  ["legacy_vs_bare", ">=", 0.75, "legacy tools/call in a session in-process c=32, × bare h3"],
  ["p99_vs_bare", "<=", 1.5, "p99 in-process c=32 (modern), × bare h3"],
  ["sockets_vs_bare", ">=", 0.8, "over sockets c=64, × bare h3 node server"],
  ["sockets_vs_sdk_v2", ">=", 3, "over sockets c=64, × SDK v2 node server"],
  ["session_bytes", "<=", 2000, "RSS bytes per idle legacy session (10,000 sessions)"],
  ["rss_after_sessions_vs_baseline", "<=", 1.1, "RSS after all sessions are deleted, × baseline"],
  ["progress_per_s", ">=", 50000, "progress notifications/s delivered in-process"],
  ["bundle_gzip_kb", "<=", 25, "workerd bundle, one tool, no zod, KB gzip (1 KB = 1000 B)"],
  ["bundle_vs_sdk_v2", "<=", 0.35, "that bundle, × SDK v2's one-tool bundle"],
  ["import_ms", "<=", 15, "import of the built module, ms (median)"],
  ["first_request_ms", "<=", 10, "first request in a fresh process, ms (median)"],
];

/** Each target judged on the unrounded figure; `measured` is the figure as reported. */
export function evaluateTargets(exactFigures) {
  const reported = roundFigures(exactFigures);
  return TARGETS.map(([key, op, bound, what]) => {
    const exact = exactFigures[key];
    const met = exact === null ? null : op === ">=" ? exact >= bound : exact <= bound;
    return { key, what, target: `${op === ">=" ? "≥" : "≤"} ${bound}`, measured: reported[key], met };
  });
}
