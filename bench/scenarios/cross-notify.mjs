/**
 * Child process: how long a notification takes from one instance to another through Redis. Two
 * mcp-h3 handlers (instances A and B), each with its own connection to the bench's redis-server
 * (`BENCH_REDIS_URL`), or to its Redis Cluster for `system: "mcp-h3-redis-cluster"`, on the same key prefix; a legacy session's GET stream is held on A, and a
 * tool called on B sends a notification to that session (`notifySession`), which travels over the
 * Redis bus to A. Measured: from just before B's handler sends it to A's stream delivering it to
 * the reader, one notification at a time. Payload: { count, warmup, system }. Prints one JSON line with
 * p50, p99 and max in ms, and `failedResponses` (notifications that did not arrive, calls that failed).
 */
import { H3 } from "h3";
import { defineMcpHandler, defineTool } from "../../dist/index.mjs";
import { RedisBus, RedisConnection, RedisEventStore, RedisSessionStore } from "../../dist/redis.mjs";
import { childPayload } from "../lib/child.mjs";
import { benchRedisOptions } from "../lib/redis.mjs";
import { legacyHeaders, openLegacySession } from "../lib/protocol.mjs";
import { URL_MCP } from "../lib/systems.mjs";
import { percentile, round } from "../lib/stats.mjs";

const { count = 2000, warmup = 200, system = "mcp-h3-redis" } = childPayload();
const options = benchRedisOptions(system, `bench-notify-${process.pid}-${Date.now()}:`);

function instance(name) {
  const connection = new RedisConnection(options);
  const handler = defineMcpHandler({
    name,
    version: "1.0.0",
    sessions: { store: new RedisSessionStore({ connection }) },
    events: new RedisEventStore({ connection }),
    bus: new RedisBus({ connection }),
    tools: [
      defineTool({
        name: "notify_me",
        description: "Sends this session's GET stream a notification stamped with the time it is sent",
        handler: async (event) => {
          const mcp = event.context.mcp;
          const sent = await mcp.notifySession(mcp.sessionId, "notifications/message", {
            level: "info",
            data: String(performance.now()),
          });
          return sent ? "sent" : "not sent";
        },
      }),
    ],
  });
  const app = new H3().all("/mcp", handler);
  return { fetch: (request) => app.fetch(request), handler, connection };
}

const a = instance("A");
const b = instance("B");
const sessionId = await openLegacySession(a.fetch, URL_MCP);
const headers = legacyHeaders(sessionId);
const get = await a.fetch(
  new Request(URL_MCP, { method: "GET", headers: { ...headers, accept: "text/event-stream" } }),
);
if (get.status !== 200) throw new Error(`GET stream on A: ${get.status}`);

// A's stream, read as it arrives: each notification resolves the wait of the call that sent it.
let arrived;
const reader = get.body.getReader();
const decoder = new TextDecoder();
void (async () => {
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffered.indexOf("\n\n")) !== -1) {
      const block = buffered.slice(0, cut);
      buffered = buffered.slice(cut + 2);
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (data?.includes("notifications/message")) arrived?.(performance.now() - Number(JSON.parse(data).params.data));
    }
  }
})();

const call = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "notify_me", arguments: {} },
});
let failedResponses = 0;
async function once() {
  const received = new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 2_000);
    arrived = (ms) => {
      clearTimeout(timer);
      resolve(ms);
    };
  });
  const response = await b.fetch(new Request(URL_MCP, { method: "POST", headers, body: call }));
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"sent"')) failedResponses++;
  const ms = await received;
  if (ms === null) failedResponses++;
  return ms;
}

for (let i = 0; i < warmup; i++) await once();
const latencies = [];
for (let i = 0; i < count; i++) {
  const ms = await once();
  if (ms !== null) latencies.push(ms);
}
const sorted = Float64Array.from(latencies).sort();
await reader.cancel().catch(() => {});
await Promise.all([a.handler.close(), b.handler.close()]);
await Promise.all([a.connection.close(), b.connection.close()]);
console.log(
  JSON.stringify({
    count: latencies.length,
    failedResponses,
    p50: round(percentile(sorted, 50), 4),
    p99: round(percentile(sorted, 99), 4),
    max: round(sorted.at(-1) ?? NaN, 4),
  }),
);
process.exit(0);
