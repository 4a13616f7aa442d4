/**
 * Child process (run with --expose-gc): memory held by idle legacy sessions. Payload:
 * { system, sessions: 10000 }. Steps: warm up (open and delete 200 sessions, so compiled code
 * and lazily built structures exist), full GC, "cold" baseline; churn (open and delete as many
 * sessions as will be measured), full GC, baseline; open `sessions`
 * sessions (initialize + notifications/initialized, through in-process fetch), full GC, measure;
 * DELETE every one, full GC, measure. Prints RSS and heap figures.
 */
import { childPayload } from "../lib/child.mjs";
import { loadSystem, URL_MCP } from "../lib/systems.mjs";
import { assertEcho, closeLegacySession, legacyEchoBody, legacyHeaders, openLegacySession } from "../lib/protocol.mjs";

const { system: name, sessions: total = 10_000, churnSessions = total, concurrency = 16 } = childPayload();
if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");

const mod = await loadSystem(name);
const system = await mod.create();
const fetchRequest = system.fetch;

async function fullGc() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function snapshot() {
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external, arrayBuffers };
}

async function pool(count, task) {
  let next = 0;
  const results = new Array(count);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

async function openMany(count) {
  return pool(count, () => openLegacySession(fetchRequest, URL_MCP));
}

async function deleteMany(ids) {
  const statuses = await pool(ids.length, (i) => closeLegacySession(fetchRequest, URL_MCP, ids[i]));
  return statuses.filter((status) => status >= 200 && status < 300).length;
}

// Warm-up: the same code paths, then gone; "cold" baseline after it.
const warm = await openMany(200);
if (warm.some((id) => !id)) throw new Error(`${name}: no session ids`);
{
  const response = await fetchRequest(
    new Request(URL_MCP, { method: "POST", headers: legacyHeaders(warm[0]), body: legacyEchoBody(1) }),
  );
  assertEcho(response.status, await response.text(), `${name} legacy call`);
}
await deleteMany(warm);
await fullGc();
const coldBaseline = snapshot();

// Churn: open and delete as many sessions as will be measured, so the baseline process has grown
// its heap (young generation) under the same traffic; the measured delta is then what is retained.
await deleteMany(await openMany(churnSessions));
await fullGc();
const baseline = snapshot();

const t0 = performance.now();
const ids = await openMany(total);
const openMs = performance.now() - t0;
await fullGc();
const open = snapshot();

// A session opened first still answers (nothing was evicted).
const probe = await fetchRequest(
  new Request(URL_MCP, { method: "POST", headers: legacyHeaders(ids[0]), body: legacyEchoBody(2) }),
);
const firstAlive = probe.status === 200 && (await probe.text()).includes("hello");

const deleted = await deleteMany(ids);
ids.length = 0;
await fullGc();
const after = snapshot();

const gone = await fetchRequest(
  new Request(URL_MCP, { method: "POST", headers: legacyHeaders(warm[0]), body: legacyEchoBody(3) }),
);
await gone.arrayBuffer();

console.log(
  JSON.stringify({
    system: name,
    sessions: total,
    deleted,
    firstAlive,
    openMs: Math.round(openMs),
    coldBaseline,
    baseline,
    open,
    after,
    rssPerSession: (open.rss - baseline.rss) / total,
    heapPerSession: (open.heapUsed - baseline.heapUsed) / total,
    rssPerSessionVsCold: (open.rss - coldBaseline.rss) / total,
    rssAfterVsBaseline: after.rss / baseline.rss,
    rssAfterVsCold: after.rss / coldBaseline.rss,
    heapAfterVsBaseline: after.heapUsed / baseline.heapUsed,
  }),
);
process.exit(0);
