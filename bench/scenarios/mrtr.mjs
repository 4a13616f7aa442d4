/**
 * Child process: the cost of a multi round-trip call (MRTR) on mcp-h3, against a plain modern
 * `tools/call` in the same process. An MRTR call is a tool that asks for one elicitation, driven to
 * completion: the first request is answered `input_required` with a `requestState` (sealed by the
 * server), the retry carries the answer and that state back (opened by the server) and gets the
 * result. Both loads run in-process at concurrency `concurrency`, in `pairs` pairs of short
 * alternating windows of `windowMs` (MRTR, plain, then plain, MRTR, …; which one opens alternates
 * with `rep` too), so drift hits both alike; each pair gives one ratio (lib/pairs.mjs explains why).
 * Payload: { rep, concurrency: 32, warmupMs, windowMs, pairs }. Prints per load the calls/s and the
 * HTTP requests/s over all windows, the ratio of completed MRTR calls/s to plain calls/s, the
 * windows (`windows: [{ first, a: mrtr, b: plain }]`, each { calls, callsPerS }), and
 * `failedResponses`: every answer, warm-up included, that was not what the load expects (the
 * runner voids the run).
 */
import { childPayload } from "../lib/child.mjs";
import { URL_MCP } from "../lib/systems.mjs";
import { isEchoAnswer, modernEchoBody, modernHeaders, MRTR_ANSWER, modernAskBody } from "../lib/protocol.mjs";
import { create } from "../systems/mcp-h3.mjs";
import { alternateLoads, perSecond } from "../lib/load-windows.mjs";
import { round } from "../lib/stats.mjs";

const { rep = 0, concurrency = 32, warmupMs = 500, windowMs = 500, pairs = 6 } = childPayload();

// A configured secret, as a deployment of more than one instance has (the key is derived once).
const system = await create({ requestState: { secret: "the bench's requestState secret, 32 bytes or more" } });
const echoHeaders = modernHeaders();
const askHeaders = modernHeaders("tools/call", "ask");
let nextId = 1;

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

// The same alternating windows as the tasks scenarios (lib/load-windows.mjs): which load opens a
// pair alternates, and with `rep` too.
const {
  failedResponses,
  totals,
  pairs: compared,
} = await alternateLoads({
  loads: { mrtr: mrtrCall, plain: plainCall },
  compared: [["mrtr", "plain"]],
  rep,
  concurrency,
  // alternateLoads warms each load warmupMs / 2 per half: halved, the warm-up stays warmupMs in all, as before.
  warmupMs: warmupMs / 2,
  windowMs,
  pairs,
});
const windows = compared["mrtr/plain"].windows;
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
    windows,
  }),
);
process.exit(0);
