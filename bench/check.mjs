/**
 * Functional probe: every system answers the bench's modern echo call, the legacy echo call in a
 * session (or statelessly), and streams progress. `node bench/check.mjs` prints what each does;
 * the runner calls it first so a broken system fails loudly instead of benchmarking errors.
 */
import { SYSTEMS, loadSystem, URL_MCP } from "./lib/systems.mjs";
import {
  assertEcho,
  legacyEchoBody,
  legacyHeaders,
  modernEchoBody,
  modernHeaders,
  modernProgressBody,
  openLegacySession,
} from "./lib/protocol.mjs";

export async function checkSystem(name) {
  const mod = await loadSystem(name);
  const system = await mod.create();
  const report = { system: name };
  const modern = await system.fetch(
    new Request(URL_MCP, { method: "POST", headers: modernHeaders(), body: modernEchoBody(1) }),
  );
  const modernText = await modern.text();
  assertEcho(modern.status, modernText, `${name} modern`);
  report.modern = { status: modern.status, type: modern.headers.get("content-type"), body: modernText.slice(0, 200) };

  let sessionId;
  if (mod.info.legacy !== "none") sessionId = await openLegacySession(system.fetch, URL_MCP);
  if (mod.info.legacy === "session" && !sessionId) throw new Error(`${name}: no Mcp-Session-Id`);
  const legacy = await system.fetch(
    new Request(URL_MCP, { method: "POST", headers: legacyHeaders(sessionId), body: legacyEchoBody(2) }),
  );
  const legacyText = await legacy.text();
  assertEcho(legacy.status, legacyText, `${name} legacy`);
  report.legacy = {
    sessionId: sessionId ?? null,
    status: legacy.status,
    type: legacy.headers.get("content-type"),
    body: legacyText.slice(0, 200),
  };

  const url = mod.info.streamPath ? new URL(mod.info.streamPath, URL_MCP).href : URL_MCP;
  const stream = await system.fetch(
    new Request(url, {
      method: "POST",
      headers: modernHeaders("tools/call", "progress"),
      body: modernProgressBody(3, 5),
    }),
  );
  const streamText = await stream.text();
  const count = streamText.split("notifications/progress").length - 1;
  report.progress = {
    status: stream.status,
    type: stream.headers.get("content-type"),
    notifications: count,
    done: streamText.includes("done 5"),
  };
  if (count !== 5 || !report.progress.done) throw new Error(`${name} progress: ${streamText.slice(0, 400)}`);
  await system.close?.();
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = process.argv.length > 2 ? process.argv.slice(2) : SYSTEMS;
  for (const name of names) {
    try {
      console.log(JSON.stringify(await checkSystem(name), null, 1));
    } catch (error) {
      console.log(`${name}: FAILED ${error.stack}`);
      process.exitCode = 1;
    }
  }
}
