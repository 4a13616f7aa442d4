/**
 * A Worker with Durable Objects in real workerd (the binary from the lockfile), offline: the entry
 * is bundled with esbuild for the browser platform (no `node:` import can resolve) and run without
 * nodejs_compat, from a capnp config generated in a temporary directory, with the objects' storage
 * on local disk in that directory (one SQLite file per object). `restart()` kills workerd outright
 * and starts it again on the same port and the same storage: what the objects stored survives,
 * nothing held in isolate memory does.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { workerdConfig, type DurableClass } from "../../scripts/workerd-config.mjs";
import { BIN } from "../hosts/runtime-process.ts";
import { freePort } from "./free-port.ts";

const START_TIMEOUT_MS = 20_000;
const WEB_AEAD = fileURLToPath(new URL("../../src/modern/mrtr/aead-web.ts", import.meta.url));
/** The compatibility date of examples/worker/config.capnp (that of the installed workerd). */
const COMPATIBILITY_DATE = "2026-11-17";

/** One Durable Object class exported by the entry, and the binding the Worker reaches it by. */
export type { DurableClass };

export interface DurableWorkerOptions {
  /**
   * The Worker module's source (TypeScript), bundled with esbuild; it exports the classes. Each start
   * sends it `GET /` until it answers (any status), so that request should have no effect.
   */
  entry: string;
  classes: DurableClass[];
  /** Default: the installed workerd's date (2026-11-17). */
  compatibilityDate?: string;
  /** Default: Node.js compatibility off (`no_nodejs_compat`, `no_nodejs_compat_v2`). */
  compatibilityFlags?: string[];
}

export interface DurableWorker {
  /** http://127.0.0.1:<port>, the same across restarts. */
  readonly url: string;
  /** The directory the objects' SQLite files are written to: `<dir>/<uniqueKey>/<id>.sqlite`. */
  readonly storageDir: string;
  /** What workerd printed since it last started. */
  output(): string;
  /** Kills workerd (SIGKILL: no graceful shutdown) and starts it again on the same storage. */
  restart(): Promise<void>;
  /** Kills workerd and removes the temporary directory. */
  close(): Promise<void>;
}

/** Bundles `options.entry`, writes the config and starts workerd; resolves once it answers HTTP. */
export async function startDurableWorker(options: DurableWorkerOptions): Promise<DurableWorker> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-h3-durable-"));
  const storageDir = join(dir, "storage");
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = "";
  // Should the test process end without close() (a crash, a timeout), workerd does not outlive it.
  const killOnExit = (): void => void child?.kill("SIGKILL");
  process.once("exit", killOnExit);

  const stop = async (): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  const close = async (): Promise<void> => {
    process.off("exit", killOnExit);
    await stop();
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    await build({
      entryPoints: [options.entry],
      outfile: join(dir, "worker.js"),
      bundle: true,
      format: "esm",
      platform: "browser",
      // The runtime's own modules (`DurableObject` of cloudflare:workers) are workerd's to resolve.
      external: ["cloudflare:*"],
      // An entry built from src/ takes requestState's engine from src/ too, as a Worker gets it
      // from the package (WebCrypto alone), whether or not dist/ is built.
      plugins: [
        {
          name: "request-state-aead",
          setup(build) {
            build.onResolve({ filter: /^#request-state-aead$/ }, () => ({ path: WEB_AEAD }));
          },
        },
      ],
      logLevel: "silent",
    });
    // workerd does not create a disk service's directory: it refuses to start without it.
    await mkdir(storageDir);
    const config = workerdConfig({
      module: "worker.js",
      classes: options.classes,
      storageDir,
      address: `127.0.0.1:${port}`,
      compatibilityDate: options.compatibilityDate ?? COMPATIBILITY_DATE,
      compatibilityFlags: options.compatibilityFlags ?? ["no_nodejs_compat", "no_nodejs_compat_v2"],
    });
    await writeFile(join(dir, "config.capnp"), config);

    const start = async (): Promise<void> => {
      output = "";
      const spawned = spawn(BIN("workerd"), ["serve", "config.capnp"], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = spawned;
      let gone = false;
      // A spawn that fails emits "error" and may never emit "exit".
      exited = new Promise((resolve) => {
        spawned.once("exit", () => resolve());
        spawned.once("error", () => resolve());
      });
      void exited.then(() => (gone = true));
      spawned.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      spawned.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      spawned.once("error", (error) => (output += `\nspawn failed: ${error.message}`));
      const deadline = Date.now() + START_TIMEOUT_MS;
      for (;;) {
        if (gone) throw new Error(`workerd exited before serving:\n${output}`);
        try {
          // Any HTTP answer, whatever its status, means workerd serves the Worker.
          await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) });
          return;
        } catch {
          if (Date.now() > deadline)
            throw new Error(`workerd did not serve ${url} in ${START_TIMEOUT_MS} ms:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };

    await start();
    return {
      url,
      storageDir,
      output: () => output,
      async restart() {
        await stop();
        try {
          await start();
        } catch (error) {
          await close();
          throw error;
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
