/**
 * `npm run fixture`: serves the conformance fixture at http://localhost:PORT/mcp (PORT default 3333)
 * on bare h3 v2 and a Node server. `MCP_FIXTURE_AUTH=1` turns bearer auth on (tokens `alice-token`,
 * `bob-token`, `reader-token`) and serves the RFC 9728 metadata its challenges point to.
 */
import { createServer } from "node:http";
import { H3, toNodeHandler } from "h3";
import { createFixtureHandler } from "./fixture.ts";

const port = Number(process.env.PORT ?? 3333);
const origin = `http://localhost:${port}`;
const authOn = process.env.MCP_FIXTURE_AUTH === "1";
const metadataPath = "/.well-known/oauth-protected-resource/mcp";
const app = new H3().all(
  "/mcp",
  createFixtureHandler(authOn ? { resourceMetadataUrl: `${origin}${metadataPath}` } : undefined),
);
if (authOn) {
  // A minimal protected-resource document (RFC 9728): the fixture issues no tokens itself.
  app.get(metadataPath, () => ({
    resource: `${origin}/mcp`,
    authorization_servers: [origin],
    scopes_supported: ["read", "write"],
    bearer_methods_supported: ["header"],
  }));
}
createServer(toNodeHandler(app)).listen(port, "127.0.0.1", () => {
  console.log(`Conformance fixture${authOn ? " (bearer auth on)" : ""}: ${origin}/mcp`);
});
