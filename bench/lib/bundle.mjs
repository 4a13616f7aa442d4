/**
 * Size: esbuild bundles of a one-tool server per system for workerd (`--platform=browser
 * --format=esm --minify`, conditions workerd/worker/browser), gzip via zlib (default level 6).
 * `node:*` imports are left external and listed (they need nodejs_compat on Workers).
 */
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

export const BUNDLES = [
  { name: "bare-h3", entry: "bare-h3.worker.mjs", label: "bare h3 v2 route (no MCP)" },
  { name: "mcp-h3", entry: "mcp-h3.worker.mjs", label: "mcp-h3 defineMcpFetchHandler, JSON Schema input (no zod)" },
  { name: "mcp-h3+zod", entry: "mcp-h3-zod.worker.mjs", label: "mcp-h3 defineMcpFetchHandler, zod input" },
  { name: "sdk-v2", entry: "sdk-v2.worker.mjs", label: "SDK v2 createMcpHandler (zod)" },
  { name: "tmcp", entry: "tmcp.worker.mjs", label: "tmcp + transport-http + adapter-zod (zod)" },
  { name: "mcp-handler", entry: "mcp-handler.worker.mjs", label: "mcp-handler (zod)" },
];

function packageOf(path) {
  const parts = path.split("node_modules/");
  if (parts.length === 1) return path.includes("dist/") && !path.includes("bench/") ? "mcp-h3 dist" : "entry";
  const rest = parts.at(-1).split("/");
  return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
}

export async function measureBundle({ entry }) {
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(new URL(`../entries/${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    minify: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    external: ["node:*"],
    // As a user's bundler sees the package: this repository's tsconfig.json (its `paths`, which point
    // package imports such as `#request-state-aead` at the sources for the tests) must not apply to dist/.
    tsconfigRaw: "{}",
    metafile: true,
    logLevel: "silent",
  });
  const output = result.outputFiles[0].contents;
  const byPackage = {};
  for (const [path, input] of Object.entries(result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].inputs)) {
    const name = packageOf(path);
    byPackage[name] = (byPackage[name] ?? 0) + input.bytesInOutput;
  }
  const nodeImports = [
    ...new Set(
      Object.values(result.metafile.inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path)),
    ),
  ];
  return {
    rawBytes: output.byteLength,
    gzipBytes: gzipSync(output).byteLength,
    topContributors: Object.entries(byPackage)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([name, bytes]) => ({ name, bytes })),
    nodeImports,
  };
}
