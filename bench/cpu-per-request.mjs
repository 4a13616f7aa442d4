/**
 * Server CPU time per request over sockets: each system's node server in its own child process,
 * driven by autocannon (c=64) in windows, the server's user+system CPU time (from /proc, Linux)
 * divided by the requests it answered. CPU time per request moves far less than req/s with the
 * load of other processes on a shared machine, so it shows what a change to the node path costs.
 *
 *   node bench/cpu-per-request.mjs [systems=mcp-h3,bare-h3] [windows=5] [seconds=2]
 */
import { readFileSync } from "node:fs";
import { cannon, startServer } from "./lib/sockets.mjs";

const [list = "mcp-h3,bare-h3", windows = "5", seconds = "2"] = process.argv.slice(2);
const systems = list.split(",");

/** User + system CPU seconds of a process (fields 14 and 15 of /proc/<pid>/stat, in clock ticks). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const servers = [];
for (const system of systems) servers.push({ system, ...(await startServer(system)), micros: [] });
for (const server of servers) await cannon(server.url, { connections: 64, durationS: 2 });
for (let w = 0; w < Number(windows); w++) {
  for (const server of w % 2 ? [...servers].reverse() : servers) {
    const before = cpuSeconds(server.pid);
    const run = await cannon(server.url, { connections: 64, durationS: Number(seconds) });
    if (run.errors || run.non2xx || run.mismatches) throw new Error(`${server.system}: failed responses`);
    server.micros.push(((cpuSeconds(server.pid) - before) / run.requests.total) * 1e6);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const server of servers) {
  console.log(
    `${server.system.padEnd(10)} ${median(server.micros).toFixed(1)} µs CPU/request (median of ${server.micros.length}; ${server.micros.map((m) => m.toFixed(1)).join(" ")})`,
  );
  await server.stop();
}
