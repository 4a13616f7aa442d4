/**
 * Serves a built Worker (a `cloudflare-module` output: an entry module and its chunks) in the real
 * workerd binary from the `workerd` npm package, on a free loopback port.
 */
import { spawn } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../helpers/free-port.ts";
import { stopChild, type RunningApp } from "./apps.ts";

const WORKERD = fileURLToPath(new URL("../../node_modules/.bin/workerd", import.meta.url));

async function modulesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** Starts workerd on `serverDir` (every .mjs/.js file a module, `entry` first) and waits for HTTP. */
export async function startWorkerd(serverDir: string, entry: string): Promise<RunningApp> {
  const port = await freePort();
  const modules = [entry, ...(await modulesUnder(serverDir)).filter((name) => name !== entry)];
  const config = [
    'using Workerd = import "/workerd/workerd.capnp";',
    "const config :Workerd.Config = (",
    '  services = [(name = "main", worker = .worker)],',
    `  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],`,
    ");",
    "const worker :Workerd.Worker = (",
    "  modules = [",
    modules.map((name) => `    (name = ${JSON.stringify(name)}, esModule = embed ${JSON.stringify(name)})`).join(",\n"),
    "  ],",
    '  compatibilityDate = "2025-07-01",',
    '  compatibilityFlags = ["nodejs_compat", "enable_request_signal"],',
    ");",
    "",
  ].join("\n");
  const configFile = join(serverDir, "workerd-test.capnp");
  await writeFile(configFile, config);
  const child = spawn(WORKERD, ["serve", configFile, "--experimental"], {
    cwd: serverDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited with ${child.exitCode}:\n${output}`);
    try {
      // A probe that hangs (a worker that accepted the connection and never answers) ends in time too.
      await fetch(origin, { signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`workerd did not answer on ${origin}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    origin,
    stop: () => stopChild(child),
  };
}
