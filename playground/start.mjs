/**
 * Runs the built playground (`nitropack build` writes .output/server/index.mjs) and prints the MCP
 * endpoint once the server really accepts connections, so the URL is never printed too early.
 *
 *   PORT=4000 node ./start.mjs
 */
import { connect } from "node:net";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = fileURLToPath(new URL("./.output/server/index.mjs", import.meta.url));
if (!existsSync(entry)) {
  console.error(
    "No build found: run `npx nitropack build` in playground/ first (or `npm run playground` at the root).",
  );
  process.exit(1);
}

// Nitro's node-server reads PORT and HOST when it starts. Loopback only by default: the endpoint has
// no auth, and mcp-h3 accepts only loopback Host and Origin headers unless told otherwise.
process.env.PORT ||= "3000";
process.env.HOST ||= "127.0.0.1";
const port = Number(process.env.PORT);
const host = process.env.HOST;

/** True once a TCP connection to the server succeeds. */
function accepts() {
  return new Promise((resolve) => {
    const socket = connect({ port, host: host === "0.0.0.0" ? "127.0.0.1" : host });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

// In-process: Ctrl+C reaches Nitro's own graceful shutdown, and there is no child to forward signals to.
await import(entry);

const deadline = Date.now() + 30_000;
while (!(await accepts())) {
  if (Date.now() > deadline) {
    console.error(`The server did not accept connections on ${host}:${port} within 30 s.`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
console.log(`MCP endpoint: http://localhost:${port}/mcp`);
console.log(`Open http://localhost:${port}/ to try every tool in the browser (the inspector alone: /inspector)`);
