import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineBuildConfig } from "unbuild";

export default defineBuildConfig({
  entries: [
    "src/index",
    { input: "src/_entries/nitro", name: "nitro" },
    // The modules' dev handler: imported by its path from the module's generated dev code, no public entry.
    { input: "src/_entries/nitro-dev", name: "nitro-dev" },
    { input: "src/_entries/nuxt", name: "nuxt" },
    { input: "src/_entries/definitions", name: "definitions" },
    { input: "src/_entries/otel", name: "otel" },
    { input: "src/_entries/redis", name: "redis" },
    { input: "src/_entries/shared", name: "shared" },
    { input: "src/_entries/cloudflare", name: "cloudflare" },
    { input: "src/_entries/apps", name: "apps" },
    { input: "src/_entries/tasks", name: "tasks" },
    { input: "src/_entries/skills", name: "skills" },
    { input: "src/_entries/inspector", name: "inspector" },
    { input: "src/_entries/testing", name: "testing" },
    // requestState's AES-GCM engine by runtime, no public entry: package.json `imports` maps
    // `#request-state-aead` to one or the other (Node's cipher under `node`, WebCrypto elsewhere).
    { input: "src/modern/mrtr/aead-node", name: "aead-node" },
    { input: "src/modern/mrtr/aead-web", name: "aead-web" },
  ],
  declaration: "node16",
  sourcemap: true,
  rollup: {
    emitCJS: false,
    // The built modules are minified: importing the readable build (196 KB) took 13.2 ms, the
    // minified one (97 KB) 10.1 ms on the benchmark machine (issue 11's import target is 10 ms;
    // a serverless cold start pays it on every instance). Source maps ship next to them, so
    // `node --enable-source-maps` shows stack traces in src/. Types (`.d.mts`) keep their JSDoc.
    esbuild: { minify: true },
  },
  // mcp-h3/testing's client is an optional peer too: the tests that import it bring their own.
  externals: [
    "h3",
    "nitropack",
    "@nuxt/kit",
    "@nuxt/schema",
    "zod",
    "@opentelemetry/api",
    "redis",
    "@modelcontextprotocol/client",
    "#inspector-page",
    "#request-state-aead",
  ],
  hooks: {
    // nitropack 2 declares its auto-imports by the resolved file without its extension when the package
    // is linked rather than installed (a workspace, `file:..`, the playground): `dist/definitions`, where
    // TypeScript looks for a `.d.ts`, not the `.d.mts` unbuild writes, and would type `defineMcpTool` as
    // any. This file gives it the types, and the Nitro module's (the typed `mcp` key), as the package
    // root's definitions.d.ts does for an installed copy.
    "build:done"(context) {
      writeFileSync(
        join(context.options.outDir, "definitions.d.ts"),
        'export * from "./definitions.mjs";\nimport type {} from "./nitro.mjs";\n',
      );
    },
  },
});
