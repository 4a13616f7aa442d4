/**
 * The runtime half of definitions as files (mcp-h3/definitions), which the modules' generated
 * handler calls: file definitions named after their files unless they name themselves, compiled
 * and served with the code file's options merged over the config key's, to both eras' clients; and
 * what the build cannot see (an explicit name given twice, a definition that fails its checks, a
 * wrong default export) refused when the handler is made, with the file named.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineMcpApp as compileApp } from "mcp-h3/apps";
import {
  compileFiles,
  defineMcpApp,
  defineMcpConfig,
  defineMcpFileHandler,
  defineMcpPrompt,
  defineMcpResource,
  defineMcpTool,
  type DefinitionFile,
} from "mcp-h3/definitions";
import { defineTool } from "mcp-h3";
import { closeAfterEach } from "./helpers/cleanup.ts";
import { connectEra, ERAS, type EraClient } from "./helpers/era-clients.ts";
import { startHost, type RunningHost } from "./helpers/hosts.ts";
import { textOf, type TextResult } from "./helpers/results.ts";

const echo = defineMcpTool({
  description: "Echo the text back",
  input: z.object({ text: z.string() }),
  handler: (_event, { text }) => text,
});

const FILES: DefinitionFile[] = [
  { kind: "tool", name: "echo", file: "mcp/tools/echo.ts", definition: echo },
  {
    kind: "tool",
    name: "named",
    file: "mcp/tools/named.ts",
    definition: defineMcpTool({ name: "shout", handler: () => "HEY" }),
  },
  {
    kind: "resource",
    name: "user",
    file: "mcp/resources/user.ts",
    definition: defineMcpResource({ uriTemplate: "user://{id}", handler: (_event, { id }) => `user ${id}` }),
  },
  {
    kind: "prompt",
    name: "review",
    file: "mcp/prompts/review.ts",
    definition: defineMcpPrompt({ arguments: [{ name: "code" }], handler: (_event, { code }) => `Review ${code}` }),
  },
  {
    kind: "app",
    name: "weather",
    file: "mcp/apps/weather.ts",
    definition: defineMcpApp({ handler: () => "sunny", view: { html: "<p>view</p>" } }),
  },
];

describe("a handler made from definition files", () => {
  let host: RunningHost;
  const open = closeAfterEach<EraClient>();

  beforeAll(async () => {
    const config = defineMcpConfig({
      version: "2.0.0",
      tools: [defineTool({ name: "from-config", handler: () => "config" })],
    });
    const handler = defineMcpFileHandler({
      options: { name: "files-app", version: "1.0.0" },
      config,
      files: FILES,
      compileApp,
    });
    host = await startHost("h3-v2", handler);
  });
  afterAll(() => host?.close());

  it.each(ERAS)("serves the files' definitions and the code file's to a %s client", async (era) => {
    const client = await connectEra(era, host.url);
    open.push(client);
    const call = async (name: string, args = {}): Promise<string> =>
      textOf((await client.callTool(name, args)) as TextResult);
    expect(await call("echo", { text: "hi" })).toBe("hi");
    expect(await call("shout")).toBe("HEY");
    expect(await call("weather")).toBe("sunny");
    expect(await call("from-config")).toBe("config");
    expect((await client.readResource("user://7")).contents).toEqual([{ uri: "user://7", text: "user 7" }]);
    expect((await client.readResource("ui://weather/view.html")).contents[0]?.text).toBe("<p>view</p>");
    const { messages } = await client.getPrompt("review", { code: "x" });
    expect(messages).toEqual([{ role: "user", content: { type: "text", text: "Review x" } }]);
  });
});

describe("definition files refused when the handler is made", () => {
  const tool = (name: string, file: string, definition: unknown): DefinitionFile => ({
    kind: "tool",
    name,
    file,
    definition,
  });

  it("names both files that give one tool name", () => {
    const files = [
      tool("a", "mcp/tools/a.ts", defineMcpTool({ name: "same", handler: () => "a" })),
      tool("b", "mcp/tools/b.ts", defineMcpTool({ name: "same", handler: () => "b" })),
    ];
    expect(() => compileFiles(files)).toThrow('mcp-h3: mcp/tools/b.ts and mcp/tools/a.ts both define the tool "same"');
  });

  it("names the file whose default export is of another kind, or missing", () => {
    expect(() => compileFiles([tool("p", "mcp/tools/p.ts", defineMcpPrompt({ handler: () => "x" }))])).toThrow(
      "mcp-h3: mcp/tools/p.ts must default-export defineMcpTool(...), the tool of its folder; it exports defineMcpPrompt(...)",
    );
    expect(() => compileFiles([tool("n", "mcp/tools/n.ts", undefined)])).toThrow(
      "mcp-h3: mcp/tools/n.ts must default-export defineMcpTool(...), the tool of its folder; it has no default export",
    );
  });

  it("names the file whose definition fails its own checks", () => {
    const bad = defineMcpTool({ name: "no spaces allowed", handler: () => "x" });
    expect(() => compileFiles([tool("bad", "mcp/tools/bad.ts", bad)])).toThrow(
      /^mcp-h3: mcp\/tools\/bad\.ts: Invalid tool name "no spaces allowed"/,
    );
  });
});
