/**
 * `npm run fixture`: serves the conformance fixture at http://localhost:PORT/mcp (PORT default 3333)
 * on bare h3 v2 and a Node server, and mcp-h3's inspector page on it at http://localhost:PORT/inspector. `MCP_FIXTURE_AUTH=1` turns bearer auth on (tokens `alice-token`,
 * `bob-token`, `reader-token`) and serves the RFC 9728 metadata its challenges point to.
 *
 * `REDIS_URL=redis://…` runs it on the stores of `mcp-h3/redis` (one connection, keys under
 * `MCP_FIXTURE_REDIS_PREFIX`, default `mcp-fixture:`) with a request-state secret every instance
 * shares (`MCP_REQUEST_STATE_SECRET`, else a fixed fixture secret), so several fixture processes
 * serve the same clients, tasks included (`RedisTaskStore`; `MCP_FIXTURE_TASK_LEASE_MS` sets their lease,
 * default 30 s); `MCP_FIXTURE_INSTANCE` names the process (default `port-<PORT>`).
 * `MCP_FIXTURE_H3=v1` mounts it on an h3 v1 app instead (the two-process test runs one of each).
 */
import { createServer, type RequestListener } from "node:http";
import { H3, toNodeHandler } from "h3";
import { createApp, eventHandler, toNodeListener } from "h3-v1";
import { defineMcpInspector } from "mcp-h3/inspector";
import { RedisBus, RedisConnection, RedisEventStore, RedisSessionStore, RedisTaskStore } from "mcp-h3/redis";
import { createFixtureHandler, type FixtureDeployment } from "./fixture.ts";

/** The fixture's request-state secret when none is configured: a test fixture's, never a deployment's. */
const FIXTURE_REQUEST_STATE_SECRET = "mcp-h3 conformance fixture: shared request-state secret";

const port = Number(process.env.PORT ?? 3333);
const origin = `http://localhost:${port}`;
const authOn = process.env.MCP_FIXTURE_AUTH === "1";
const redisUrl = process.env.REDIS_URL;
/** `REDIS_CLUSTER_URLS`: comma-separated `redis://host:port` of some nodes of a Redis Cluster. */
const clusterUrls = process.env.REDIS_CLUSTER_URLS?.split(",")
  .map((url) => url.trim())
  .filter((url) => url !== "");
const metadataPath = "/.well-known/oauth-protected-resource/mcp";

/** `MCP_FIXTURE_TASK_LEASE_MS`: the lease of this process's tasks (tasks() `leaseMs`), when set. */
function taskLease(): { leaseMs?: number } {
  const leaseMs = process.env.MCP_FIXTURE_TASK_LEASE_MS;
  return leaseMs ? { leaseMs: Number(leaseMs) } : {};
}

let connection: RedisConnection | undefined;
let deployment: FixtureDeployment | undefined;
if (redisUrl || clusterUrls?.length) {
  const prefix = process.env.MCP_FIXTURE_REDIS_PREFIX ?? "mcp-fixture:";
  connection = new RedisConnection(clusterUrls?.length ? { clusterUrls, prefix } : { url: redisUrl, prefix });
  deployment = {
    instance: process.env.MCP_FIXTURE_INSTANCE ?? `port-${port}`,
    sessions: { store: new RedisSessionStore({ connection }) },
    events: new RedisEventStore({ connection }),
    bus: new RedisBus({ connection }),
    // Without this option the engine reads MCP_REQUEST_STATE_SECRET itself.
    requestState: process.env.MCP_REQUEST_STATE_SECRET ? undefined : { secret: FIXTURE_REQUEST_STATE_SECRET },
    // Tasks on Redis too: any instance answers for a task, a cancel reaches the one running it.
    tasks: { store: new RedisTaskStore({ connection }), ...taskLease() },
  };
}

const handler = createFixtureHandler(
  authOn ? { resourceMetadataUrl: `${origin}${metadataPath}` } : undefined,
  deployment,
);
const metadata = () => ({
  // A minimal protected-resource document (RFC 9728): the fixture issues no tokens itself.
  resource: `${origin}/mcp`,
  authorization_servers: [origin],
  scopes_supported: ["read", "write"],
  bearer_methods_supported: ["header"],
});
// The inspector page at /inspector (loopback only, the default): open it to try the fixture from a browser.
const inspector = defineMcpInspector({ endpoint: "/mcp", auth: authOn });
const onV1 = process.env.MCP_FIXTURE_H3 === "v1";
let listener: RequestListener;
if (onV1) {
  const app = createApp();
  if (authOn) app.use(metadataPath, eventHandler(metadata));
  app.use("/mcp", handler as never);
  app.use("/inspector", inspector as never);
  listener = toNodeListener(app);
} else {
  const app = new H3().all("/mcp", handler).get("/inspector", inspector);
  if (authOn) app.get(metadataPath, metadata);
  listener = toNodeHandler(app) as RequestListener;
}
const server = createServer(listener);
server.listen(port, "127.0.0.1", () => {
  const modes = [onV1 && "h3 v1", authOn && "bearer auth on", redisUrl && `Redis stores at ${redisUrl}`]
    .filter(Boolean)
    .join(", ");
  console.log(`Conformance fixture${modes ? ` (${modes})` : ""}: ${origin}/mcp (inspector: ${origin}/inspector)`);
});

// A clean stop (SIGTERM, Ctrl-C): end open streams, close the Redis connection, then exit.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close();
    void Promise.allSettled([handler.close(), connection?.close()]).then(() => process.exit(0));
  });
}
