import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { H3Event } from "h3";
import { ErrorCode, McpError } from "../../src/protocol/errors.ts";
import { compileSchema } from "../../src/define/schema.ts";
import { parseUriTemplate } from "../../src/define/uri-template.ts";
import {
  image,
  resourceLink,
  text,
  toCallToolResult,
  toGetPromptResult,
  toReadResourceResult,
} from "../../src/define/content.ts";
import { defineTool } from "../../src/define/tool.ts";
import { defineResource, defineResourceTemplate } from "../../src/define/resource.ts";
import { definePrompt } from "../../src/define/prompt.ts";

const event = {} as H3Event;

/** A 2020-12 schema using the keywords a careless copy or a converter would lose. */
function richSchema() {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { positive: { $anchor: "positive", type: "integer", minimum: 1 } },
    properties: {
      count: { $ref: "#positive" },
      kind: { enum: ["a", "b"] },
      extra: { type: "string" },
    },
    required: ["count"],
    // A JSON Schema keyword, not a thenable: nothing awaits a schema.
    // oxlint-disable-next-line unicorn/no-thenable
    allOf: [{ if: { properties: { kind: { const: "a" } }, required: ["kind"] }, then: { required: ["extra"] } }],
    additionalProperties: false,
  };
}

describe("compileSchema", () => {
  it("converts zod to JSON Schema and validates with its transforms", async () => {
    const compiled = compileSchema(z.object({ city: z.string().transform((s) => s.toUpperCase()) }), {
      label: "t",
      objectOnly: true,
    });
    expect(compiled.jsonSchema).toMatchObject({ type: "object", properties: { city: { type: "string" } } });
    expect(await compiled.validate({ city: "oslo" })).toEqual({ ok: true, value: { city: "OSLO" } });
    const failed = await compiled.validate({ city: 1 });
    expect(failed.ok).toBe(false);
    expect(!failed.ok && failed.message).toMatch(/^city: .*expected string/);
  });

  it("keeps a plain JSON Schema as the very same, untouched object and validates it", async () => {
    const schema = Object.freeze(richSchema());
    const before = JSON.stringify(schema);
    const compiled = compileSchema(schema, { label: "t", objectOnly: true });
    expect(compiled.jsonSchema).toBe(schema);
    expect(JSON.stringify(compiled.jsonSchema)).toBe(before);
    expect(await compiled.validate({ count: 2 })).toEqual({ ok: true, value: { count: 2 } });
    expect(await compiled.validate({ count: 2, kind: "a", extra: "x" })).toMatchObject({ ok: true });
    const bad = await compiled.validate({ count: 0, kind: "a", other: true });
    expect(bad.ok).toBe(false);
    const message = bad.ok ? "" : bad.message;
    expect(message).toContain("count: 0 is less than 1.");
    expect(message).toContain('(root): Instance does not have required property "extra".');
    expect(message).toContain('(root): Property "other" does not match additional properties schema.');
    expect(message).not.toContain("False boolean schema");
  });

  it("reads the draft from $schema", async () => {
    const draft4 = {
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "object",
      properties: { n: { type: "number", maximum: 5, exclusiveMaximum: true } },
    };
    const compiled = compileSchema(draft4, { label: "t" });
    expect((await compiled.validate({ n: 5 })).ok).toBe(false);
    expect((await compiled.validate({ n: 4 })).ok).toBe(true);
  });

  it("rejects a non-object root when objectOnly", () => {
    expect(() => compileSchema({ type: "string" }, { label: "Tool x input", objectOnly: true })).toThrow(
      /Tool x input must be a JSON Schema with type "object"/,
    );
    expect(() => compileSchema({ properties: {} }, { label: "t", objectOnly: true })).toThrow(/it has no type/);
    expect(() => compileSchema(z.string(), { label: "t", objectOnly: true })).toThrow(/type "string"/);
    expect(() => compileSchema({ type: "string" }, { label: "t" })).not.toThrow();
  });

  it("asks for a JSON Schema when a Standard Schema cannot convert itself", () => {
    const bare = { "~standard": { version: 1, vendor: "acme", validate: (value: unknown) => ({ value }) } } as const;
    expect(() => compileSchema(bare, { label: "t" })).toThrow(
      /acme schema has no JSON Schema converter.*pass a JSON Schema object/,
    );
  });

  it("treats a missing schema as an empty object schema", async () => {
    const compiled = compileSchema(undefined, { label: "t", objectOnly: true });
    expect(compiled.jsonSchema).toEqual({ type: "object", properties: {} });
    expect(await compiled.validate(undefined)).toEqual({ ok: true, value: {} });
    expect((await compiled.validate([])).ok).toBe(false);
  });
});

describe("parseUriTemplate", () => {
  it("matches, percent-decodes and expands", () => {
    const template = parseUriTemplate("users://{id}/files/{name}.txt");
    expect(template.variables).toEqual(["id", "name"]);
    expect(template.match("users://42/files/a%20b.txt")).toEqual({ id: "42", name: "a b" });
    expect(template.match("users://42/files/a/b.txt")).toBeUndefined();
    expect(template.match("users://42/files/.txt")).toBeUndefined();
    expect(template.match("users://42/filesX/a.txt")).toBeUndefined();
    expect(template.expand({ id: "a/b", name: "it's (1)" })).toBe("users://a%2Fb/files/it%27s%20%281%29.txt");
    expect(template.match(template.expand({ id: "a/b", name: "x?y#z" }))).toEqual({ id: "a/b", name: "x?y#z" });
  });

  it("escapes regular expression characters in literals", () => {
    const template = parseUriTemplate("x+y://a.b/{v}");
    expect(template.match("x+y://a.b/1")).toEqual({ v: "1" });
    expect(template.match("x+y://aXb/1")).toBeUndefined();
  });

  it("does not match malformed percent-encoding", () => {
    expect(parseUriTemplate("file:///{path}").match("file:///%E0%A4%A")).toBeUndefined();
    expect(parseUriTemplate("file:///{path}").match("file:///%zz")).toBeUndefined();
  });

  it("rejects anything beyond level 1", () => {
    for (const bad of ["a://{+x}", "a://{#x}", "a://{?x}", "a://{/x}", "a://{x,y}", "a://{x*}", "a://{x:3}"]) {
      expect(() => parseUriTemplate(bad), bad).toThrow(/Invalid URI template/);
    }
    expect(() => parseUriTemplate("a://{x")).toThrow(/without a matching "}"/);
    expect(() => parseUriTemplate("a://x}")).toThrow(/without a matching "{"/);
    expect(() => parseUriTemplate("a://{}")).toThrow(/empty expression/);
    expect(() => parseUriTemplate("a://{x}/{x}")).toThrow(/appears twice/);
    expect(() => parseUriTemplate("a://{x}{y}")).toThrow(/cannot be told apart/);
  });
});

describe("content", () => {
  it("shapes tool returns", () => {
    expect(toCallToolResult("hi", false)).toEqual({ content: [{ type: "text", text: "hi" }] });
    expect(toCallToolResult(undefined, false)).toEqual({ content: [] });
    expect(toCallToolResult(text("a"), false)).toEqual({ content: [{ type: "text", text: "a" }] });
    const blocks = [text("a"), image("AAAA", "image/png")];
    expect(toCallToolResult(blocks, false)).toEqual({ content: blocks });
    const full = { content: [text("x")], isError: true };
    expect(toCallToolResult(full, false)).toBe(full);
    expect(toCallToolResult({ celsius: 21 }, false)).toEqual({
      content: [{ type: "text", text: '{"celsius":21}' }],
      structuredContent: { celsius: 21 },
    });
    // With an output schema a content-block-like object is data.
    expect(toCallToolResult({ type: "text", text: "x" }, true).structuredContent).toEqual({ type: "text", text: "x" });
    expect(resourceLink({ uri: "a://b", name: "b" })).toEqual({ type: "resource_link", uri: "a://b", name: "b" });
  });

  it("shapes resource reads, with bytes as base64", () => {
    expect(toReadResourceResult("hi", "a://b", "text/plain")).toEqual({
      contents: [{ uri: "a://b", mimeType: "text/plain", text: "hi" }],
    });
    const bytes = new Uint8Array(70000).map((_, i) => i % 256);
    const blob = (toReadResourceResult(bytes, "a://b").contents[0] as { blob: string }).blob;
    expect(Uint8Array.from(atob(blob), (c) => c.charCodeAt(0))).toEqual(bytes);
    expect(toReadResourceResult(new TextEncoder().encode("hi"), "a://b").contents).toEqual([
      { uri: "a://b", blob: "aGk=" },
    ]);
    const one = { uri: "a://c", text: "c" };
    expect(toReadResourceResult(one, "a://b")).toEqual({ contents: [one] });
    expect(() => toReadResourceResult(42, "a://b")).toThrow(/a number/);
  });

  it("shapes prompt returns", () => {
    expect(toGetPromptResult("go", "d")).toEqual({
      description: "d",
      messages: [{ role: "user", content: { type: "text", text: "go" } }],
    });
  });
});

describe("defineTool", () => {
  it("lists, validates, runs and shapes", async () => {
    const tool = defineTool({
      name: "weather",
      description: "Weather",
      input: z.object({ city: z.string() }),
      output: z.object({ celsius: z.number() }),
      annotations: { readOnlyHint: true },
      handler: async (_event, { city }) => ({ celsius: city.length }),
    });
    expect(Object.keys(tool.listing)).toEqual(["name", "description", "inputSchema", "outputSchema", "annotations"]);
    expect(await tool.call(event, { city: "Oslo" })).toEqual({
      content: [{ type: "text", text: '{"celsius":4}' }],
      structuredContent: { celsius: 4 },
    });
    const error = await Promise.resolve()
      .then(() => tool.call(event, { city: 1 }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toMatch(/^Invalid arguments for tool weather: city: /);
  });

  it("keeps a JSON Schema input verbatim in the listing", () => {
    const schema = richSchema();
    const tool = defineTool({ name: "rich", input: schema, handler: () => "ok" });
    expect(tool.listing.inputSchema).toBe(schema);
    expect(defineTool({ name: "bare", handler: () => "ok" }).listing.inputSchema).toEqual({
      type: "object",
      properties: {},
    });
  });

  it("turns thrown errors into results and lets McpError through", async () => {
    // `call` is synchronous for a synchronous handler: wrap it so sync throws become rejections.
    const failing = async (thrown: unknown) =>
      defineTool({
        name: "f",
        handler: () => {
          throw thrown;
        },
      }).call(event, {});
    expect(await failing(new Error("boom"))).toEqual({ isError: true, content: [{ type: "text", text: "boom" }] });
    const mcp = new McpError(ErrorCode.InvalidParams, "nope");
    await expect(failing(mcp)).rejects.toBe(mcp);
    // Only our own McpError passes: an error that merely looks like one is the tool's failure.
    const lookalike = Object.assign(new Error("upstream said no"), { name: "McpError", code: -32602 });
    expect(await failing(lookalike)).toEqual({
      isError: true,
      content: [{ type: "text", text: "upstream said no" }],
    });
  });

  it("reports structured content that breaks the output schema", async () => {
    const tool = defineTool({
      name: "out",
      output: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      handler: () => ({ n: "x" }),
    });
    const result = await tool.call(event, {});
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/^Tool out returned structured content/) });
  });

  it("checks names and x-mcp-header declarations at definition time", () => {
    expect(() => defineTool({ name: "bad name", handler: () => "" })).toThrow(/Invalid tool name/);
    expect(() => defineTool({ name: "x".repeat(129), handler: () => "" })).toThrow(/Invalid tool name/);
    const withHeaders = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      defineTool({ name: "h", input: { type: "object", properties, ...extra }, handler: () => "" });
    const good = withHeaders({
      region: { type: "string", "x-mcp-header": "Region" },
      nested: { type: "object", properties: { id: { type: "integer", "x-mcp-header": "Item-Id" } } },
    });
    expect(good.headerParams).toEqual([
      { header: "Region", path: ["region"], type: "string" },
      { header: "Item-Id", path: ["nested", "id"], type: "integer" },
    ]);
    expect(() =>
      withHeaders({ a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "region" } }),
    ).toThrow(/case-insensitive/);
    expect(() => withHeaders({ a: { type: "number", "x-mcp-header": "A" } })).toThrow(
      /"string", "integer" or "boolean"/,
    );
    expect(() => withHeaders({ a: { "x-mcp-header": "A" } })).toThrow(/no type/);
    expect(() => withHeaders({ a: { type: "string", "x-mcp-header": "A B" } })).toThrow(/RFC 9110 token/);
    expect(() => withHeaders({ a: { type: "string", "x-mcp-header": "" } })).toThrow(/RFC 9110 token/);
    expect(() => withHeaders({ list: { type: "array", items: { type: "string", "x-mcp-header": "A" } } })).toThrow(
      /properties` keys alone/,
    );
    expect(() => withHeaders({ a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } })).toThrow(
      /properties` keys alone/,
    );
    expect(() => withHeaders({}, { $defs: { d: { type: "string", "x-mcp-header": "A" } } })).toThrow(/keys alone/);
  });
});

describe("resources", () => {
  it("reads a fixed resource with its mimeType", async () => {
    const resource = defineResource({
      uri: "docs://readme",
      name: "readme",
      mimeType: "text/markdown",
      handler: (_event, url) => `# ${url.protocol}`,
    });
    expect(resource.listing).toEqual({ uri: "docs://readme", name: "readme", mimeType: "text/markdown" });
    expect(await resource.read(event, "docs://readme")).toEqual({
      contents: [{ uri: "docs://readme", mimeType: "text/markdown", text: "# docs:" }],
    });
    await expect(resource.read(event, "not a uri")).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it("matches, lists, completes and reads a template", async () => {
    const template = defineResourceTemplate({
      uriTemplate: "users://{id}/profile",
      name: "profile",
      mimeType: "application/json",
      list: () => [
        { uri: "users://1/profile", name: "one" },
        { uri: "users://2/profile", name: "two", mimeType: "x/y" },
      ],
      complete: { id: (typed) => ["10", "11", "20"].filter((id) => id.startsWith(typed)) },
      handler: (_event, { id }) => JSON.stringify({ id }),
    });
    expect(template.match("users://7/profile")).toEqual({ id: "7" });
    expect((await template.list(event)).map((entry) => entry.mimeType)).toEqual(["application/json", "x/y"]);
    expect(await template.complete(event, "id", "1", {})).toEqual(["10", "11"]);
    expect(await template.complete(event, "constructor", "", {})).toEqual([]);
    expect(await template.complete(event, "valueOf", "", {})).toEqual([]);
    expect(await template.read(event, "users://7/profile", { id: "7" })).toEqual({
      contents: [{ uri: "users://7/profile", mimeType: "application/json", text: '{"id":"7"}' }],
    });
  });
});

describe("definePrompt", () => {
  const prompt = definePrompt({
    name: "review",
    description: "Review code",
    arguments: [{ name: "code", required: true }, { name: "language" }],
    complete: { language: () => ["ts", "js"] },
    handler: (_event, { code, language }) => `Review ${language ?? "?"}: ${code}`,
  });

  it("lists its arguments", () => {
    expect(prompt.listing).toEqual({
      name: "review",
      description: "Review code",
      arguments: [{ name: "code", required: true }, { name: "language" }],
    });
  });

  it("checks arguments and runs", async () => {
    expect(await prompt.get(event, { code: "x", language: "ts" })).toEqual({
      description: "Review code",
      messages: [{ role: "user", content: { type: "text", text: "Review ts: x" } }],
    });
    await expect(prompt.get(event, { language: "ts" })).rejects.toThrow(
      'Missing required argument "code" for prompt review',
    );
    await expect(prompt.get(event, { code: 1 } as never)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('"code"'),
    });
    expect(await prompt.complete(event, "language", "", {})).toEqual(["ts", "js"]);
    expect(await prompt.complete(event, "code", "", {})).toEqual([]);
  });
});
