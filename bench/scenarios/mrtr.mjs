/**
 * Child process: the cost of a multi round-trip call (MRTR) on mcp-h3, against a plain modern
 * `tools/call` in the same process. An MRTR call is a tool that asks for one elicitation, driven to
 * completion: the first request is answered `input_required` with a `requestState` (sealed by the
 * server), the retry carries the answer and that state back (opened by the server) and gets the
 * result. Both loads run in-process at concurrency `concurrency`, alternating `blocks` times so
 * drift hits both alike (which one goes first alternates with `rep`). Payload:
 * { rep, concurrency: 32, warmupMs, durationMs, blocks: 2 }. Prints per load the calls/s and the
 * HTTP requests/s, the ratio of completed MRTR calls/s to plain calls/s, and `failedResponses`:
 * every answer, warm-up included, that was not what the load expects (the runner voids the run).
 */
import { childPayload } from "../lib/child.mjs";
import { URL_MCP } from "../lib/systems.mjs";
import { isEchoAnswer, modernEchoBody, modernHeaders, MRTR_ANSWER, modernAskBody } from "../lib/protocol.mjs";
import { create } from "../systems/mcp-h3.mjs";
import { round } from "../lib/stats.mjs";

const { rep = 0, concurrency = 32, warmupMs = 500, durationMs = 1000, blocks = 2 } = childPayload();

// A configured secret, as a deployment of more than one instance has (the key is derived once).
const system = await create({ requestState: { secret: "the bench's requestState secret, 32 bytes or more" } });
const echoHeaders = modernHeaders();
const askHeaders = modernHeaders("tools/call", "ask");
let nextId = 1;
let failedResponses = 0;

async function post(headers, body) {
  const response = await system.fetch(new Request(URL_MCP, { method: "POST", headers, body }));
  return { status: response.status, text: await response.text() };
}

/** One plain call; false when its answer is not the echo. */
async function plainCall() {
  const { status, text } = await post(echoHeaders, modernEchoBody(nextId++));
  return status === 200 && isEchoAnswer(text);
}

/** One MRTR call driven to completion (two requests); false when either answer is not the expected one. */
async function mrtrCall() {
  const first = await post(askHeaders, modernAskBody(nextId++));
  if (first.status !== 200) return false;
  const state = JSON.parse(first.text).result?.requestState;
  if (typeof state !== "string" || !first.text.includes('"input_required"')) return false;
  const retry = await post(askHeaders, modernAskBody(nextId++, state));
  return retry.status === 200 && retry.text.includes(MRTR_ANSWER) && !retry.text.includes('"error"');
}

async function load(callOnce, ms) {
  let calls = 0;
  const end = performance.now() + ms;
  async function worker() {
    while (performance.now() < end) {
      if (!(await callOnce())) failedResponses++;
      calls++;
    }
  }
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { calls, elapsedMs: performance.now() - start };
}

await load(plainCall, warmupMs / 2);
await load(mrtrCall, warmupMs / 2);
const totals = { plain: { calls: 0, elapsedMs: 0 }, mrtr: { calls: 0, elapsedMs: 0 } };
const loads = { plain: plainCall, mrtr: mrtrCall };
for (let block = 0; block < blocks; block++) {
  const order = (rep + block) % 2 === 0 ? ["plain", "mrtr"] : ["mrtr", "plain"];
  for (const name of order) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { calls, elapsedMs } = await load(loads[name], durationMs);
    totals[name].calls += calls;
    totals[name].elapsedMs += elapsedMs;
  }
}
const perSecond = (total) => total.calls / (total.elapsedMs / 1000);
const plain = perSecond(totals.plain);
const mrtr = perSecond(totals.mrtr);
console.log(
  JSON.stringify({
    system: "mcp-h3",
    failedResponses,
    plainCallsPerS: round(plain, 1),
    mrtrCallsPerS: round(mrtr, 1),
    mrtrRequestsPerS: round(mrtr * 2, 1),
    mrtrVsToolsCall: mrtr / plain,
  }),
);
process.exit(0);
