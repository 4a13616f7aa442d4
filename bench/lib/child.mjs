/** Runs a scenario script in a fresh node process and returns the JSON it prints last. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));

export function runChild(script, payload, { nodeArgs = [], timeoutMs = 180_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, JSON.stringify(payload)], {
      cwd: BENCH_DIR,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const last = stdout.trim().split("\n").pop();
      if (code !== 0) {
        reject(
          new Error(
            `${script} ${JSON.stringify(payload)} exited ${code ?? signal}\n${stderr.slice(-2000)}${stdout.slice(-1000)}`,
          ),
        );
        return;
      }
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`${script}: no JSON result\n${stdout.slice(-1000)}\n${stderr.slice(-1000)}`));
      }
    });
  });
}

/** Parses the payload a scenario child got on its command line. */
export function childPayload() {
  return JSON.parse(process.argv[2] ?? "{}");
}

/**
 * Starts a scenario script that stays alive and answers commands: one JSON line in on stdin, one
 * JSON line out on stdout (its first line announces it is ready). Resolves once it is ready, with
 * `send(command)` (the next line it prints, parsed) and `stop()`. A child that exits early rejects
 * the pending command with its stderr.
 */
export function startWorker(script, payload, { nodeArgs = [], timeoutMs = 60_000 } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, script, JSON.stringify(payload)], {
    cwd: BENCH_DIR,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  let buffer = "";
  let stderr = "";
  let waiting;
  let exit;
  const fail = (error) => {
    const pending = waiting;
    waiting = undefined;
    pending?.reject(error);
  };
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line.startsWith("{")) continue;
      const pending = waiting;
      waiting = undefined;
      try {
        pending?.resolve(JSON.parse(line));
      } catch (error) {
        pending?.reject(error);
      }
    }
  });
  const exited = new Promise((resolve) => {
    child.once("close", (code, signal) => {
      exit = code ?? signal;
      fail(new Error(`${script} ${JSON.stringify(payload)} exited ${exit}\n${stderr.slice(-2000)}`));
      resolve();
    });
  });
  child.stdin.on("error", () => {});
  const next = () =>
    new Promise((resolve, reject) => {
      if (exit !== undefined) {
        reject(new Error(`${script} ${JSON.stringify(payload)} exited ${exit}\n${stderr.slice(-2000)}`));
        return;
      }
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        fail(new Error(`${script} ${JSON.stringify(payload)}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      waiting = {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
    });
  const ready = next();
  return ready.then(
    () => ({
      send(command) {
        const answer = next();
        child.stdin.write(`${JSON.stringify(command)}\n`);
        return answer;
      },
      async stop() {
        if (exit === undefined) {
          child.stdin.end(`${JSON.stringify({ stop: true })}\n`);
          const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
          await exited;
          clearTimeout(timer);
        }
      },
    }),
    async (error) => {
      child.kill("SIGKILL");
      await exited;
      throw error;
    },
  );
}
