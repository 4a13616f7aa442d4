/**
 * Child process: cold start of one system in a fresh node process.
 * - import_ms: dynamic import of the library's own entry modules (mcp-h3: the root's built
 *   dist/index.mjs; peers: their packages; bare: h3), timed with performance.now around import().
 * - create_ms: importing the rest of the system file (zod, adapters; mostly cached) and building
 *   the handler.
 * - first_request_ms: the first modern tools/call through fetch(Request), body read to the end.
 * Every system's first request goes through the same kind of entry: the in-process `fetch` of its
 * full stack, as the throughput scenario uses it (mcp-h3 and the bare route: an h3 v2 app's fetch;
 * the peers: their own fetch handlers).
 */
import { childPayload } from "../lib/child.mjs";
import { URL_MCP } from "../lib/systems.mjs";
import { assertEcho, modernEchoBody, modernHeaders } from "../lib/protocol.mjs";

const ENTRIES = {
  "bare-h3": ["h3"],
  "mcp-h3": ["../../dist/index.mjs"],
  "sdk-v2": ["@modelcontextprotocol/server"],
  tmcp: ["tmcp", "@tmcp/transport-http"],
  "mcp-handler": ["mcp-handler"],
};

const { system: name } = childPayload();
const t0 = performance.now();
for (const specifier of ENTRIES[name]) await import(specifier);
const t1 = performance.now();
const mod = await import(`../systems/${name}.mjs`);
const system = await mod.create();
const t2 = performance.now();
const response = await system.fetch(
  new Request(URL_MCP, { method: "POST", headers: modernHeaders(), body: modernEchoBody(1) }),
);
const text = await response.text();
const t3 = performance.now();
assertEcho(response.status, text, `${name} first request`);
console.log(JSON.stringify({ system: name, importMs: t1 - t0, createMs: t2 - t1, firstRequestMs: t3 - t2 }));
process.exit(0);
