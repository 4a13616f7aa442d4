#!/usr/bin/env node
/**
 * The root `prepare` script: installs TypeScript 7 into test/typescript-7 (its own lockfile) unless the version its
 * lockfile names is already there. npm runs `prepare` on `npm install`, `npm ci` and also on every `npm pack`:
 * before this check each pack (the framework tests pack the library, so does the README's install from a checkout)
 * ran `npm ci` there again, which empties the folder first, so a test reading TypeScript 7 at that moment found
 * nothing, and a folder linked from another checkout was emptied for both.
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
