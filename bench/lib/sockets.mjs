/** Over sockets: start a system's node server in a child process and drive it with autocannon. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { BENCH_DIR } from "./child.mjs";
import { isEchoAnswer, modernEchoBody, modernHeaders } from "./protocol.mjs";

/** One response in this many is checked for the expected body (all of them are checked for 2xx). */
export const BODY_SAMPLE_EVERY = 64;

const SERVE = fileURLToPath(new URL("../scenarios/serve.mjs", import.meta.url));

export function startServer(system, nodeArgs = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, SERVE, JSON.stringify({ system })], {
      cwd: BENCH_DIR,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    let stdout = "";
    let stderr = "";
    let started = false;
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const line = stdout.split("\n").find((l) => l.startsWith("{"));
      if (!started && line && stdout.includes("\n")) {
        started = true;
        const { port } = JSON.parse(line);
        const exited = new Promise((r) => child.once("close", r));
        resolve({
          port,
          pid: child.pid,
          url: `http://127.0.0.1:${port}/mcp`,
          stop: async () => {
            child.kill("SIGTERM");
            await exited;
          },
        });
      }
    });
    child.once("close", (code) => {
      if (!started) reject(new Error(`server ${system} exited ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

/**
 * One autocannon run. Every response's status is counted (non2xx); a sample of the bodies is
 * checked for the echo answer, and a wrong one counts as a mismatch. Resolves autocannon's result
 * plus `sampled` (how many bodies were checked).
 */
export function cannon(url, { connections, durationS }) {
  const { host: _host, ...headers } = modernHeaders();
  let seen = 0;
  let sampled = 0;
  const verifyBody = (body) => {
    if (seen++ % BODY_SAMPLE_EVERY !== 0) return true;
    sampled++;
    return isEchoAnswer(body);
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: "POST",
        headers,
        body: modernEchoBody(1),
        connections,
        duration: durationS,
        pipelining: 1,
        verifyBody,
      },
      (error, result) => (error ? reject(error) : resolve({ ...result, sampled })),
    );
  });
}

/** One measured autocannon run: warm-up, then the measured run. */
export async function measureSockets(system, { connections = 64, durationS = 10, warmupS = 2 } = {}) {
  const server = await startServer(system);
  try {
    if (warmupS > 0) await cannon(server.url, { connections, durationS: warmupS });
    const result = await cannon(server.url, { connections, durationS });
    const errors = result.errors + result.timeouts;
    return {
      rps: result.requests.average,
      requests: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors,
      non2xx: result.non2xx,
      mismatches: result.mismatches,
      sampled: result.sampled,
      // Anything but a 2xx with the echo in the sampled bodies voids the figure (errors are no speed).
      failedResponses: errors + result.non2xx + result.mismatches + (result.sampled === 0 ? 1 : 0),
      bytesPerSec: result.throughput.average,
    };
  } finally {
    await server.stop();
  }
}
