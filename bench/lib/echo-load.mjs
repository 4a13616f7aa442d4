/**
 * The in-process load both in-process children put on a system (scenarios/inproc.mjs, its
 * repetitions; scenarios/windows.mjs, the alternating windows of a pair), so that the two measure
 * the same loop: `fetch(Request)` straight into the handler, `concurrency` workers each sending the
 * next echo call as soon as its answer is read. Latency is measured around fetch + reading the
 * whole body (Request construction is outside it, inside the throughput).
 */
import { loadSystem, URL_MCP } from "./systems.mjs";
import {
  assertEcho,
  isEchoAnswer,
  legacyEchoBody,
  legacyHeaders,
  modernEchoBody,
  modernHeaders,
  openLegacySession,
} from "./protocol.mjs";

/**
 * Builds system `name` and its echo call for `era` (a legacy session opened first when the system
 * keeps them), and checks one call. `mode` says how a legacy call was served.
 */
export async function startEchoLoad(name, era) {
  const mod = await loadSystem(name);
  const system = await mod.create();
  const fetchRequest = system.fetch;
  let makeBody = modernEchoBody;
  let headers = modernHeaders();
  let sessionId;
  let mode = era;
  if (era !== "modern") {
    if (mod.info.legacy !== "none") sessionId = await openLegacySession(fetchRequest, URL_MCP);
    mode = sessionId ? "legacy-session" : mod.info.legacy === "none" ? "legacy-body (no MCP)" : "legacy-stateless";
    makeBody = legacyEchoBody;
    headers = legacyHeaders(sessionId);
  }
  let nextId = 1;
  const makeRequest = () => new Request(URL_MCP, { method: "POST", headers, body: makeBody(nextId++) });
  {
    const response = await fetchRequest(makeRequest());
    assertEcho(response.status, await response.text(), `${name} ${era}`);
  }

  /**
   * Loads the system at `concurrency` for `ms`; pushes each call's latency (ms) to `latencies`
   * when given. `failedResponses` counts every answer that was not a 200 with the echo in it.
   */
  async function load(concurrency, ms, latencies) {
    let requests = 0;
    let failedResponses = 0;
    const end = performance.now() + ms;
    async function worker() {
      while (performance.now() < end) {
        const request = makeRequest();
        const t0 = performance.now();
        const response = await fetchRequest(request);
        const text = await response.text();
        if (latencies) latencies.push(performance.now() - t0);
        if (response.status !== 200 || !isEchoAnswer(text)) failedResponses++;
        requests++;
      }
    }
    const start = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { requests, failedResponses, elapsedMs: performance.now() - start };
  }

  return { system, sessionId, mode, load };
}
