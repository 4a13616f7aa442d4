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
