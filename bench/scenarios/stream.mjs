/**
 * Child process: notifications/s delivered by a tool that emits `count` progress notifications
 * (modern tools/call with a progressToken, in-process fetch). The SSE body is read as it arrives
 * and every complete event carrying notifications/progress is counted; the clock runs from the
 * call to the end of the body. Before it, calls of `warmupCount` notifications run for at least
 * `warmupMs` (like the in-process scenario's warm-up): three short calls alone measured the JIT
 * compiling the path, not the path (10,000 notifications: about 120,000/s cold against 230,000/s
 * warm on the same build). Payload: { system, count: 10000, warmupMs: 500 }.
 */
import { childPayload } from "../lib/child.mjs";
import { loadSystem, URL_MCP } from "../lib/systems.mjs";
import { modernHeaders, modernProgressBody } from "../lib/protocol.mjs";

const { system: name, count = 10_000, warmupMs = 500, warmupCount = 1000 } = childPayload();
const mod = await loadSystem(name);
const system = await mod.create();
const url = mod.info.streamPath ? new URL(mod.info.streamPath, URL_MCP).href : URL_MCP;
const headers = modernHeaders("tools/call", "progress");

async function call(id, n) {
  const t0 = performance.now();
  const response = await system.fetch(
    new Request(url, { method: "POST", headers, body: modernProgressBody(id, n, `p${id}`) }),
  );
  const decoder = new TextDecoder();
  let buffer = "";
  let notifications = 0;
  let result = false;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (frame.includes('"notifications/progress"')) notifications++;
      else if (frame.includes(`"done ${n}"`)) result = true;
    }
  }
  const ms = performance.now() - t0;
  return { status: response.status, type: response.headers.get("content-type"), notifications, result, ms };
}

const warmupStart = performance.now();
for (let i = 1; i <= 3 || performance.now() - warmupStart < warmupMs; i++) {
  const warm = await call(i, warmupCount);
  if (warm.notifications !== warmupCount) throw new Error(`${name}: warm-up got ${warm.notifications}/${warmupCount}`);
}
globalThis.gc?.();
const measured = await call(100, count);
if (measured.notifications !== count || !measured.result) {
  throw new Error(
    `${name}: got ${measured.notifications}/${count} notifications, result ${measured.result}, ${measured.status} ${measured.type}`,
  );
}
console.log(
  JSON.stringify({ system: name, count, ms: measured.ms, perSecond: (measured.notifications / measured.ms) * 1000 }),
);
process.exit(0);
