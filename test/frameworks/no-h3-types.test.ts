/**
 * A Worker, Deno or Bun project installs mcp-h3 without h3 (the peer is optional) and uses
 * `defineMcpFetchHandler`: with `skipLibCheck` (the default of those templates) its code type-checks
 * against the library's types, and a wrong use still fails.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installApp, TSC, type App } from "./apps.ts";

describe("a project without h3", () => {
  let app: App;

  beforeAll(async () => {
    app = await installApp("no-h3", []);
  }, 300_000);
  afterAll(() => app?.remove());

  it("installs no h3", async () => {
    const listing = await app.exec("npm", ["ls", "h3", "--all", "--parseable"]).catch((error: Error) => error.message);
    expect(listing).not.toContain("node_modules/h3");
  });

  it("type-checks a fetch handler, and a wrong use fails", async () => {
    await app.exec(process.execPath, [TSC, "-p", "."]);
    await writeFile(
      join(app.dir, "wrong.ts"),
      'import mcp from "./worker.ts";\nexport const port: number = mcp.fetch;\n',
    );
    const failure = await app.exec(process.execPath, [TSC, "-p", ".", "--noEmit"], {}).then(
      () => "passed",
      (error: Error) => error.message,
    );
    expect(failure).toContain("wrong.ts");
    expect(failure).toContain("TS2322");
  });
});
