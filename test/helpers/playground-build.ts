/**
 * The playground as a user runs it, built into a folder of the test's own (PLAYGROUND_BUILD_DIR) so it can
 * build while another test builds the playground too, and started from that build's node-server entry.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { buildAppHost, buildAppView } from "../../scripts/build-app-views.mjs";
import { INSPECTOR_PAGE_FILE, writeInspectorPage } from "../../scripts/build-inspector.mjs";

const run = promisify(execFile);
export const root = fileURLToPath(new URL("../..", import.meta.url));
const playground = join(root, "playground");

/** Newest modification time of the files under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds the library when the playground would otherwise bundle a missing or stale dist/. */
export async function ensureLibraryBuilt(): Promise<void> {
  const dist = join(root, "dist/index.mjs");
  if (existsSync(dist) && statSync(dist).mtimeMs >= newestMtime(join(root, "src"))) return ensureInspectorPage();
  const before = existsSync(dist) ? statSync(dist).mtimeMs : 0;
  try {
    await run("npm", ["run", "build"], { cwd: root });
  } catch (error) {
    // unbuild exits 1 on warnings about entries the playground does not use; only a missing main entry matters.
    if (!existsSync(dist) || statSync(dist).mtimeMs <= before) throw error;
  }
  await ensureInspectorPage();
}

/** The inspector page module (`npm run build` writes it after unbuild), rebuilt when inspector/ is newer. */
async function ensureInspectorPage(): Promise<void> {
  const fresh =
    existsSync(INSPECTOR_PAGE_FILE) && statSync(INSPECTOR_PAGE_FILE).mtimeMs >= newestMtime(join(root, "inspector"));
  if (!fresh) await writeInspectorPage();
}

/** Runs `nitropack build` for the playground into `buildDir` (its .nitro/ and .output/ go there). */
export async function buildPlayground(buildDir: string): Promise<void> {
  // The playground imports the MCP App's built view and the minimal host's pages, as `npm run playground` builds them.
  await Promise.all([buildAppView("weather-view", { write: true }), buildAppHost({ write: true })]);
  await run(join(root, "node_modules/.bin/nitropack"), ["build"], {
    cwd: playground,
    env: { ...process.env, PLAYGROUND_BUILD_DIR: buildDir },
  });
}

/** Starts the build in `buildDir` on `port` and resolves once Nitro says it listens. */
export function startPlayground(buildDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(buildDir, ".output/server/index.mjs")], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`playground did not start:\n${output}`));
    }, 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Listening on")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`playground exited with ${code}:\n${output}`));
    });
  });
}

/** Stops a server process the test started and waits until it is gone. */
export function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
