#!/usr/bin/env node
/**
 * The first step of `npm test` and `npm run test:fast`: installs TypeScript 7 into test/typescript-7 (its own
 * lockfile) unless the version its lockfile names is already there (then it does nothing, in a few milliseconds).
 * Not a `prepare` script: npm runs that on every `npm pack` too (the framework tests and the README's install from a
 * checkout pack the library; each `npm ci` there emptied the folder under a running test), and npm 11 lists it as an
 * unapproved install script to whoever installs the packed tarball.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const folder = fileURLToPath(new URL("../test/typescript-7/", import.meta.url));
const wanted = JSON.parse(readFileSync(`${folder}package-lock.json`, "utf8")).packages["node_modules/typescript"]
  ?.version;
const manifest = `${folder}node_modules/typescript/package.json`;
const installed = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;

if (wanted !== undefined && installed === wanted) process.exit(0);

const result = spawnSync("npm", ["ci", "--prefix", folder, "--no-audit", "--no-fund", "--loglevel=error"], {
  stdio: "inherit",
  shell: process.platform === "win32",
});
process.exit(result.status ?? 1);
