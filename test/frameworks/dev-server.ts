/**
 * A framework's dev server (`nuxi dev`, `nitro dev`) on a fixture app, as a developer runs it:
 * spawned in the app's folder on a free loopback port, in a process group of its own (a dev CLI
 * forks its server), ready once a path answers, and closed by ending the whole group.
 *
 * @example
 * const app = await installApp("nitropack2-module", ["nitropack@2.13.6"]);
 * const dev = await startDevServer(app, { entry: "node_modules/nitropack/dist/cli/index.mjs" });
 * await fetch(`${dev.origin}/mcp`);
 * await dev.close();
 */
import { spawn } from "node:child_process";
import { freePort } from "../helpers/free-port.ts";
import type { App } from "./apps.ts";

export interface DevServerOptions {
  /** The CLI's JavaScript file, relative to the app folder (e.g. `node_modules/nuxt/bin/nuxt.mjs`). */
  entry: string;
  /** Its arguments before `--port` and `--host` (default `["dev"]`). */
  args?: readonly string[];
  /** The Node binary (default: the one running the tests; Nuxt 4 and nitro 3 want Node 22). */
  node?: string;
  env?: NodeJS.ProcessEnv;
  /** Answering on this path (any status below 500) means ready (default `/`). */
  readyPath?: string;
  /** How long the server gets to become ready (default 120 s: a first dev build, Vite's included). */
  readyTimeoutMs?: number;
}

export interface DevServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What the server printed so far (stdout and stderr interleaved; the last 256 KiB). */
  output(): string;
  /** Where the output ends now, for {@link DevServer.waitForOutput}'s `since`. */
  mark(): number;
  /** What the server printed after `since` (a {@link DevServer.mark}), as far as it is still kept. */
  printedSince(since: number): string;
  /** Waits until the output printed after `since` (a {@link DevServer.mark}) matches `pattern`; rejects with the end of the output. */
  waitForOutput(pattern: RegExp, since?: number, timeoutMs?: number): Promise<string>;
  /** Ends the whole process group: SIGTERM, then SIGKILL after a grace period. */
  close(): Promise<void>;
}

const KEEP_OUTPUT = 256 * 1024;
const STOP_GRACE_MS = 3_000;

/**
 * The environment without what marks a test run (vitest sets `NODE_ENV=test`, `VITEST`, `TEST`):
 * a framework that sees it quietens its logger (Nuxt prints nothing at all), unlike a developer's.
 */
function developerEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env))
    if (name === "TEST" || name === "NODE_ENV" || name.startsWith("VITEST")) delete env[name];
  return env;
}

/** Starts the dev server; rejects with the server's output when it exits or does not answer in time. */
export async function startDevServer(app: App, options: DevServerOptions): Promise<DevServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(
    options.node ?? process.execPath,
    [options.entry, ...(options.args ?? ["dev"]), "--port", String(port), "--host", "127.0.0.1"],
    {
      cwd: app.dir,
      env: { ...developerEnv(), PORT: String(port), HOST: "127.0.0.1", NO_COLOR: "1", CI: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  let dropped = 0;
  const append = (chunk: Buffer): void => {
    output += chunk.toString();
    if (output.length > KEEP_OUTPUT) {
      dropped += output.length - KEEP_OUTPUT;
      output = output.slice(-KEEP_OUTPUT);
    }
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is gone already.
    }
  };
  // A test process that dies leaves no dev server behind.
  const onExit = (): void => signalGroup("SIGKILL");
  process.once("exit", onExit);
  const close = async (): Promise<void> => {
    process.off("exit", onExit);
    if (child.exitCode !== null || child.signalCode !== null) return signalGroup("SIGKILL");
    signalGroup("SIGTERM");
    const kill = setTimeout(() => signalGroup("SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(kill);
    // Forked children that ignored SIGTERM.
    signalGroup("SIGKILL");
  };
  const text = (): string => output;

  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await close();
      throw new Error(`the dev server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`);
    }
    try {
      const response = await fetch(`${origin}${options.readyPath ?? "/"}`, { signal: AbortSignal.timeout(5_000) });
      await response.body?.cancel();
      if (response.status < 500) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`the dev server did not answer on ${origin} in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    origin,
    output: text,
    mark: () => dropped + output.length,
    printedSince: (since) => output.slice(Math.max(0, since - dropped)),
    async waitForOutput(pattern, since = 0, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const seen = output.slice(Math.max(0, since - dropped));
        if (pattern.test(seen)) return seen;
        if (Date.now() > end) {
          throw new Error(
            `the dev server printed nothing matching ${pattern} (after mark ${since}, of ${dropped + output.length}):\n${output.slice(-4_000)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close,
  };
}
