/**
 * Which AES-256-GCM engine seals `requestState` where (src/modern/mrtr/aead.ts): the package's
 * `#request-state-aead` import (package.json `imports`) gives Node, Bun and Deno Node's own cipher
 * (`aead-node`) and everything else WebCrypto alone (`aead-web`), so a Worker bundle carries no Node
 * engine. Checked on the built package: resolved by Node itself, and bundled for workerd by esbuild
 * as a user's bundler would (the repository's tsconfig paths left out).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The minimal Worker of the bench (one tool, no zod) on the built package, for workerd. */
async function workerBundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { defineMcpFetchHandler, defineTool } from "./dist/index.mjs";
        export default defineMcpFetchHandler({ name: "w", version: "1.0.0", tools: [defineTool({
          name: "echo", description: "Echoes", input: { type: "object" }, handler: () => "ok" })] });`,
      resolveDir: ROOT,
    },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    external: ["node:*"],
    tsconfigRaw: "{}",
    logLevel: "silent",
  });
  return new TextDecoder().decode(result.outputFiles[0]!.contents);
}

describe("requestState's engine by runtime", () => {
  it("is Node's own cipher on Node, resolved through the package's imports", () => {
    const name = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'import { runtimeAead } from "#request-state-aead"; process.stdout.write(runtimeAead().name);',
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(name).toBe("node");
  });

  it("is WebCrypto alone in a Worker bundle: the Node engine is not in it", async () => {
    const bundle = await workerBundle();
    expect(bundle).toContain("AES-GCM");
    expect(bundle).not.toContain("createCipheriv");
    expect(bundle).not.toContain("getBuiltinModule");
  }, 60_000);
});
