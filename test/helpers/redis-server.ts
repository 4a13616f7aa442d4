/**
 * A real Redis for tests: `redis-server` (Debian's package; `.ci/run` installs it) on a free
 * loopback port, with nothing written to disk unless asked (`persistDir`: an append-only file
 * written through on every command, so a Redis killed and started again on the same port and
 * directory comes back with everything it had). A test file that needs it skips its suites with
 * `unavailable(REDIS)` from services.ts: loudly where redis-server is missing, never under CI.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createClient } from "redis";
import { freePort } from "./free-port.ts";
import { missingLine, REDIS } from "./services.ts";

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /**
   * A directory for an append-only file with `appendfsync always`: every write reaches the disk
   * before Redis answers, so even a SIGKILL loses nothing it acknowledged.
   */
  persistDir?: string;
}

/** Starts redis-server (on `port` when given, to restart one at the same URL) and waits until it answers PING. */
export async function startRedis(port?: number, options: RedisServerOptions = {}): Promise<RunningRedis> {
  const chosen = port ?? (await freePort());
  const persistence = options.persistDir
    ? ["--appendonly", "yes", "--appendfsync", "always", "--dir", options.persistDir]
    : ["--appendonly", "no"];
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", ...persistence],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const spawnError = new Promise<never>((_, reject) =>
    child.once("error", (error) => reject(new Error(`${missingLine(REDIS, "it could not start")} ${error.message}`))),
  );
  const url = `redis://127.0.0.1:${chosen}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}:\n${output}`);
    const probe = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 500 } });
    probe.on("error", () => {});
    const ready = await Promise.race([
      // Not ready yet: refused, or answering LOADING while it reads its append-only file back.
      probe.connect().then(
        () =>
          probe.ping().then(
            (answer) => answer === "PONG",
            () => false,
          ),
        () => false,
      ),
      spawnError,
    ]);
    if (probe.isOpen) await probe.close();
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${url}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    port: chosen,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/**
 * The Redis `.ci/run` started for the run (`REDIS_URL`) when there is one, else one of this test's
 * own. Keys of tests sharing one must not meet: give each its own prefix. Stopping the shared one
 * is left to whoever started it.
 */
export async function sharedOrOwnRedis(): Promise<Pick<RunningRedis, "url" | "stop">> {
  const shared = process.env.REDIS_URL;
  if (shared) return { url: shared, stop: async () => {} };
  return startRedis();
}
