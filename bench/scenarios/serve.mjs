/**
 * Child process: the system's node server (its own node adapter) on 127.0.0.1, random port.
 * Prints {"port":N} once listening and serves until killed.
 */
import { childPayload } from "../lib/child.mjs";
import { loadSystem } from "../lib/systems.mjs";

const { system: name } = childPayload();
const mod = await loadSystem(name);
const server = await mod.createNodeServer();
server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ system: name, port: server.address().port, pid: process.pid }));
});
const stop = () => {
  server.closeAllConnections?.();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
