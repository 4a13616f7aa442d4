/**
 * Real framework apps for tests, set up as a user would: the library is packed (`npm pack` of the
 * built package), a fixture app under apps/ is copied to a temporary folder, the tarball and the
 * framework are installed there with npm, the app is built, and its built server is started.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort } from "../helpers/free-port.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The root's TypeScript: the apps type-check with the compiler the project pins. */
export const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

let packed: Promise<string> | undefined;

/**
 * Packs the built library once per test file; `npm test` builds dist/ before vitest runs. The
 * tarball's folder is removed when the test file's process exits.
 */
export function packLibrary(): Promise<string> {
  packed ??= (async () => {
    const folder = await mkdtemp(join(tmpdir(), "mcp-h3-pack-"));
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
    const { stdout } = await run("npm", ["pack", "--pack-destination", folder, ROOT], { cwd: ROOT });
    return join(folder, stdout.trim().split("\n").at(-1)!);
  })();
  return packed;
}

export interface App {
  dir: string;
  /** Runs a command in the app folder; rejects with its output when it exits non-zero. */
  exec(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  remove(): Promise<void>;
}

/** Copies the fixture `apps/<name>` and installs the packed library plus `packages` into it. */
export async function installApp(name: string, packages: readonly string[]): Promise<App> {
  const dir = await mkdtemp(join(tmpdir(), `mcp-h3-${name}-`));
  await cp(fileURLToPath(new URL(`./apps/${name}`, import.meta.url)), dir, { recursive: true });
  const exec = async (command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> => {
    try {
      const { stdout, stderr } = await run(command, args, {
        cwd: dir,
        env: { ...process.env, ...env },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout + stderr;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${command} ${args.join(" ")} failed in ${dir}:\n${failed.stdout ?? ""}${failed.stderr ?? ""}`, {
        cause: error,
      });
    }
  };
  // --prefer-offline: packages already in npm's cache (the root's install put most there) are
  // not fetched again; the registry is asked only for what the cache lacks.
  await exec("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", await packLibrary(), ...packages]);
  return { dir, exec, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface RunningApp {
  origin: string;
  stop(): Promise<void>;
}

/** Starts a built server (`node .output/server/index.mjs`) and waits until it answers HTTP. */
export async function startBuilt(app: App, entry: string, node = process.execPath): Promise<RunningApp> {
  const port = await freePort();
  const child: ChildProcess = spawn(node, [entry], {
    cwd: app.dir,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", NITRO_PORT: String(port), NITRO_HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}:\n${output}`);
    try {
      await fetch(origin, { signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${entry} did not answer on ${origin}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    origin,
    stop: () => stopChild(child),
  };
}

/** How long a server gets to exit after SIGTERM before it is killed: workerd waits for open streams. */
const STOP_GRACE_MS = 2_000;

/** Stops a server process: SIGTERM, then SIGKILL when it has not exited after a grace period. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** The h3 packages `npm ls h3 --all --parseable` lists (one folder per installed copy). */
export async function installedH3(app: App): Promise<string[]> {
  const listing = await app.exec("npm", ["ls", "h3", "--all", "--parseable"]);
  return [...new Set(listing.split("\n").filter((line) => line.trim() !== ""))];
}
