/**
 * Child process (run with --expose-gc): memory held by live legacy sessions. Payload:
 * { system, sessions: 10000 }. Steps:
 * 1. cold baseline: the system is built, no session has ever existed; full GC (one that also
 *    shrinks the young generation, see lib/memory-readings.mjs), measure;
 * 2. open `sessions` sessions (initialize + notifications/initialized through in-process fetch),
 *    full GC, measure: heap and RSS growth per live session against the cold baseline;
 * 3. DELETE every one, full GC, measure: heap after the sessions ended against the cold baseline.
 *    That figure counts the heap outside compiled code: at both points a heap snapshot sorts out
 *    V8's "code" objects (bytecode, machine code, feedback, deopt data), which the JIT makes
 *    under load once and which no session holds (about 1 MB for mcp-h3 after 10,000 sessions,
 *    the same after a warm-up session or not). The whole heap is reported beside it, unjudged.
 * Probes, any of which fails the repetition (the runner then fails the run): the first session
 * opened still answers a tools/call once all are open (nothing evicted), every DELETE is answered
 * 2xx, and a deleted session gets 404. Then a second cycle (open and end as many again) shows
 * whether what the first left behind grows.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeHeapSnapshot } from "node:v8";
import { childPayload } from "../lib/child.mjs";
import { fullGc, snapshot } from "../lib/memory-readings.mjs";
import { loadSystem, URL_MCP } from "../lib/systems.mjs";
import { assertEcho, closeLegacySession, legacyEchoBody, legacyHeaders, openLegacySession } from "../lib/protocol.mjs";

const { system: name, sessions: total = 10_000, concurrency = 16 } = childPayload();
if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");

const mod = await loadSystem(name);
const system = await mod.create();
const fetchRequest = system.fetch;

const snapshotDir = mkdtempSync(join(tmpdir(), "mcp-h3-bench-memory-"));

/** Writes a heap snapshot now; parsed at the end, once every figure is read. */
function writeSnapshot(name) {
  return writeHeapSnapshot(join(snapshotDir, `${name}.heapsnapshot`));
}

/** Bytes of a heap snapshot's objects, apart from V8's compiled code (node type "code"). */
function bytesOutsideCode(file) {
  const { snapshot: meta, nodes } = JSON.parse(readFileSync(file, "utf8"));
  const fields = meta.meta.node_fields;
  const stride = fields.length;
  const typeField = fields.indexOf("type");
  const sizeField = fields.indexOf("self_size");
  const codeType = meta.meta.node_types[0].indexOf("code");
  let bytes = 0;
  for (let i = 0; i < nodes.length; i += stride) {
    if (nodes[i + typeField] !== codeType) bytes += nodes[i + sizeField];
  }
  return bytes;
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

function legacyCall(sessionId, id) {
  return fetchRequest(
    new Request(URL_MCP, { method: "POST", headers: legacyHeaders(sessionId), body: legacyEchoBody(id) }),
  );
}

// 1. Cold: before any session exists.
// Writing a snapshot leaves things on the heap (about 0.8 MB): each is written before its
// point's figures are read, so the figures compare like with like.
await fullGc();
const coldSnapshot = writeSnapshot("cold");
await fullGc();
const coldBaseline = snapshot();

// 2. Every session open and idle.
const t0 = performance.now();
const ids = await pool(total, () => openLegacySession(fetchRequest, URL_MCP));
const openMs = performance.now() - t0;
if (ids.some((id) => !id)) throw new Error(`${name}: initialize gave no Mcp-Session-Id`);
if (new Set(ids).size !== total) throw new Error(`${name}: session ids are not unique`);
await fullGc();
const open = snapshot();

// Probe: the session opened first still answers (nothing was evicted).
const firstId = ids[0];
{
  const response = await legacyCall(firstId, 2);
  assertEcho(response.status, await response.text(), `${name}: the first of ${total} sessions`);
}

// 3. Every session ended. Probe: every DELETE answered 2xx. (The harness keeps none of its
// arrays past this point: they would count as the system's.)
let deleted = 0;
{
  const statuses = await pool(ids.length, (i) => closeLegacySession(fetchRequest, URL_MCP, ids[i]));
  deleted = statuses.filter((status) => status >= 200 && status < 300).length;
  if (deleted !== total) {
    const other = statuses.find((status) => status < 200 || status >= 300);
    throw new Error(`${name}: ${total - deleted} of ${total} DELETEs were not answered 2xx (e.g. ${other})`);
  }
}
ids.length = 0;
await fullGc();
const afterSnapshot = writeSnapshot("after");
await fullGc();
const after = snapshot();

// Probe: a deleted session is gone. A peer known to keep answering (its `info.deleteEndsSession`
// is false) is recorded, not failed: it is measured, not judged.
const goneStatus = await legacyCall(firstId, 3).then(async (response) => {
  await response.arrayBuffer();
  return response.status;
});
if (goneStatus !== 404 && mod.info.deleteEndsSession !== false) {
  throw new Error(`${name}: a deleted session answered ${goneStatus}, not 404`);
}

// 4. The same again: what a first cycle leaves behind once (compiled code, structures built
// lazily) does not grow in a second one; a leak does.
{
  const again = await pool(total, () => openLegacySession(fetchRequest, URL_MCP));
  await pool(again.length, (i) => closeLegacySession(fetchRequest, URL_MCP, again[i]));
}
await fullGc();
const afterSecondCycle = snapshot();

// Every figure is read: now the snapshots can be parsed.
const coldOutsideCode = bytesOutsideCode(coldSnapshot);
const afterOutsideCode = bytesOutsideCode(afterSnapshot);
rmSync(snapshotDir, { recursive: true, force: true });

console.log(
  JSON.stringify({
    system: name,
    sessions: total,
    deleted,
    deletedSessionStatus: goneStatus,
    openMs: Math.round(openMs),
    coldBaseline,
    open,
    after,
    heapPerSession: (open.heapUsed - coldBaseline.heapUsed) / total,
    rssPerSession: (open.rss - coldBaseline.rss) / total,
    heapAfterVsCold: afterOutsideCode / coldOutsideCode,
    wholeHeapAfterVsCold: after.heapUsed / coldBaseline.heapUsed,
    coldOutsideCode,
    afterOutsideCode,
    rssAfterVsCold: after.rss / coldBaseline.rss,
    afterSecondCycle,
    heapSecondCycleVsFirst: afterSecondCycle.heapUsed / after.heapUsed,
  }),
);
process.exit(0);
