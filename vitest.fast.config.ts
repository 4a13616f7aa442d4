import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

// `npm run test:fast`: the tests that run in vitest's own process, for everyday work. No build (they import the
// sources), no child process (no host runtime, fixture server, framework build, tsc command or redis-server), no
// browser. A test file is in when neither it nor a test helper it imports (transitively) names one of the markers
// below; so a new test joins or leaves the subset by what it does, not by a list to keep.

const root = fileURLToPath(new URL(".", import.meta.url));
const MARKERS = ["node:child_process", "playwright-core", "../dist/", "../../dist/", "redis-server.ts", "services.ts"];
const LOCAL_IMPORT = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;

const outOfProcess = new Map<string, boolean>();
function leavesTheProcess(file: string, seen = new Set<string>()): boolean {
  const known = outOfProcess.get(file);
  if (known !== undefined) return known;
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  let leaves = MARKERS.some((marker) => text.includes(marker));
  for (const [, spec] of text.matchAll(LOCAL_IMPORT)) {
    if (leaves) break;
    const target = resolve(dirname(file), spec!);
    // Only the tests' own helpers are followed: src/ runs in-process by design (Web APIs, no child processes).
    if (!target.startsWith(join(root, "test/")) || !/\.(ts|mts|mjs)$/.test(target) || !existsSync(target)) continue;
    leaves = leavesTheProcess(target, seen);
  }
  outOfProcess.set(file, leaves);
  return leaves;
}

const inProcess = readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" })
  // The fuzzer runs in-process but sends 40,000 messages (minutes on 2 cores): it stays for `npm test`.
  .filter((file) => file.endsWith(".test.ts") && !/^(frameworks|fuzz)\//.test(file) && !file.includes("node_modules"))
  .map((file) => join(root, "test", file))
  .filter((file) => !leavesTheProcess(file))
  .map((file) => relative(root, file));

// Replaced, not merged: mergeConfig would add the list to the base's include glob.
export default defineConfig({ ...base, test: { ...base.test, include: inProcess, globalSetup: [] } });
