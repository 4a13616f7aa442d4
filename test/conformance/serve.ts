/**
 * `npm run fixture`: serves the conformance fixture at http://localhost:PORT/mcp (PORT default 3333)
 * on bare h3 v2 and a Node server.
 */
import { createServer } from "node:http";
import { H3, toNodeHandler } from "h3";
import { createFixtureHandler } from "./fixture.ts";

const port = Number(process.env.PORT ?? 3333);
const app = new H3().all("/mcp", createFixtureHandler());
createServer(toNodeHandler(app)).listen(port, "127.0.0.1", () => {
  console.log(`Conformance fixture: http://localhost:${port}/mcp`);
});
