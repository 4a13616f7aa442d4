/**
 * CPU profile of one in-process scenario (default: mcp-h3, modern tools/call, c=32), for finding
 * where mcp-h3 spends its time. Writes bench/.profile/<name>.cpuprofile (open it in Chrome
 * DevTools or speedscope) and prints the top self-time functions and a per-package breakdown;
 * mcp-h3's frames are named by their source file and line (dist/ is minified; its source maps say).
 *
 *   node bench/profile.mjs [system=mcp-h3] [era=modern] [concurrency=32] [durationMs=4000]
 *   node bench/profile.mjs sockets [system=mcp-h3] [seconds=5]   (the node server under autocannon c=64)
 *   node bench/profile.mjs heap [system=mcp-h3] [era=modern]      (sampling heap profile: allocation sites)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";
import { runChild } from "./lib/child.mjs";
import { cannon, startServer } from "./lib/sockets.mjs";

const argv = process.argv.slice(2);
const sockets = argv[0] === "sockets";
const heap = argv[0] === "heap";
const [system = "mcp-h3", era = "modern", concurrency = "32", durationMs = "4000"] = sockets
  ? [argv[1], "modern", "64"]
  : heap
    ? [argv[1], argv[2]]
    : argv;
const dir = fileURLToPath(new URL("./.profile/", import.meta.url));

/** Source maps of mcp-h3's built (minified) modules, by URL, read once each. */
const sourceMaps = new Map();

/**
 * Where a frame is, as `name  place:line`: a frame of mcp-h3's minified dist/ is named by its source
 * (`src/engine/engine.ts:225 (minified name)`) through the source map next to it; others as they are.
 */
function frameName({ functionName, url, lineNumber, columnNumber }) {
  const name = functionName || "(anonymous)";
  const dist = url.match(/\/dist\/[^/]+\.mjs$/) && !url.includes("/node_modules/") ? fileURLToPath(url) : undefined;
  if (dist) {
    if (!sourceMaps.has(dist)) {
      sourceMaps.set(
        dist,
        existsSync(`${dist}.map`) ? new SourceMap(JSON.parse(readFileSync(`${dist}.map`, "utf8"))) : null,
      );
    }
    const entry = sourceMaps.get(dist)?.findEntry(lineNumber, columnNumber);
    if (entry?.originalSource) {
      return `${entry.originalSource.replace(/^.*?\/src\//, "src/")}:${entry.originalLine + 1} (${name})`;
    }
  }
  return `${name}  ${url.replace(/^file:\/\/.*?\/(node_modules|dist|bench)\//, "$1/")}${url ? `:${lineNumber + 1}` : ""}`;
}
const tmp = `${dir}tmp/`;
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

let result;
if (sockets) {
  const server = await startServer(system, ["--cpu-prof", `--cpu-prof-dir=${tmp}`]);
  await cannon(server.url, { connections: 64, durationS: 1 });
  const run = await cannon(server.url, { connections: 64, durationS: Number(argv[2] ?? 5) });
  result = { results: { sockets: { rps: run.requests.average, p99: run.latency.p99 } } };
  await server.stop();
} else if (heap) {
  result = await runChild(
    fileURLToPath(new URL("./scenarios/inproc.mjs", import.meta.url)),
    {
      system,
      era,
      concurrency: [Number(concurrency)],
      warmupMs: 1000,
      durationMs: Number(durationMs),
      heapProfile: `${dir}${system}-${era}-c${concurrency}.heapprofile`,
    },
    { nodeArgs: ["--expose-gc"] },
  );
  rmSync(tmp, { recursive: true, force: true });
  const target = `${dir}${system}-${era}-c${concurrency}.heapprofile`;
  // Sampled allocations by site (self size of each call-tree node), summed by function and location.
  const sites = new Map();
  let total = 0;
  const walk = (node) => {
    const key = frameName(node.callFrame);
    sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(JSON.parse(readFileSync(target, "utf8")).head);
  console.log(`${system} ${era} c=${concurrency}: ${JSON.stringify(result.results)}`);
  const requests = Object.values(result.results).reduce((n, r) => n + r.requests, 0);
  console.log(
    `heap profile: ${target} (every sampled allocation of the measured run, collected or not: bytes allocated by site)`,
  );
  console.log(
    `≈ ${(total / requests / 1024).toFixed(1)} KiB allocated per request (sampled estimate, incl. the bench's own Request)\n`,
  );
  for (const [key, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`  ${((bytes / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  }
  process.exit(0);
} else {
  result = await runChild(
    fileURLToPath(new URL("./scenarios/inproc.mjs", import.meta.url)),
    { system, era, concurrency: [Number(concurrency)], warmupMs: 1000, durationMs: Number(durationMs) },
    { nodeArgs: ["--expose-gc", "--cpu-prof", `--cpu-prof-dir=${tmp}`] },
  );
}
const file = readdirSync(tmp).find((f) => f.endsWith(".cpuprofile"));
const target = `${dir}${system}-${sockets ? "sockets" : era}-c${concurrency}.cpuprofile`;
renameSync(`${tmp}${file}`, target);
rmSync(tmp, { recursive: true, force: true });

const profile = JSON.parse(readFileSync(target, "utf8"));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map();
// Sample deltas give each sample's duration; attribute it to the sampled (leaf) node.
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
}
const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);

function where(url) {
  if (!url) return "(native/V8)";
  if (url.startsWith("node:")) return "node internals";
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  if (url.includes("/dist/")) return "mcp-h3 dist";
  if (url.includes("/bench/")) return "bench harness";
  return url;
}

const byFunction = new Map();
const byPackage = new Map();
for (const [id, micros] of selfMicros) {
  const { callFrame } = nodes.get(id);
  const key = frameName(callFrame);
  byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  const pkg = where(callFrame.url);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
}
const pct = (micros) => `${((micros / total) * 100).toFixed(1).padStart(5)}%`;
console.log(`${system} ${era} c=${concurrency}: ${JSON.stringify(result.results)}`);
console.log(`profile: ${target} (${(total / 1e6).toFixed(2)} s sampled)\n`);
console.log("self time by package:");
for (const [pkg, micros] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`  ${pct(micros)}  ${pkg}`);
console.log("\ntop self-time functions:");
for (const [key, micros] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`  ${pct(micros)}  ${key}`);
