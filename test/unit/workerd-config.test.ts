/**
 * scripts/workerd-config.mjs: the wrangler.jsonc of examples/cloudflare read as wrangler reads it
 * (comments, trailing commas), and the Durable Object classes it declares.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { durableClassesOf, parseJsonc, workerdConfig } from "../../scripts/workerd-config.mjs";

describe("workerd-config", () => {
  it("parses JSONC: comments and trailing commas go, strings keep what looks like them", () => {
    const text = '{ // a comment\n "a": "x, } // not a comment", /* block */ "b": [1, 2,], "c": "/* kept */", }';
    expect(parseJsonc(text)).toEqual({ a: "x, } // not a comment", b: [1, 2], c: "/* kept */" });
    expect(parseJsonc('{ "escaped": "a \\" // b" }')).toEqual({ escaped: 'a " // b' });
    expect(() => parseJsonc("{ oops }")).toThrow(SyntaxError);
  });

  it("reads the example's wrangler.jsonc: one SQLite-backed class on MCP_OBJECT, no Node.js compatibility", () => {
    const wrangler = parseJsonc(
      readFileSync(new URL("../../examples/cloudflare/wrangler.jsonc", import.meta.url), "utf8"),
    );
    expect(durableClassesOf(wrangler)).toEqual([{ className: "McpObject", binding: "MCP_OBJECT", enableSql: true }]);
    expect(wrangler).toMatchObject({ compatibility_flags: ["no_nodejs_compat", "no_nodejs_compat_v2"] });
  });

  it("writes the classes, their storage and the flags into the capnp config", () => {
    const config = workerdConfig({
      module: "worker.js",
      classes: [{ className: "McpObject", binding: "MCP_OBJECT", enableSql: true }],
      storageDir: "/tmp/state",
      address: "127.0.0.1:8787",
      compatibilityDate: "2026-11-17",
      compatibilityFlags: ["no_nodejs_compat"],
    });
    expect(config).toContain('(name = "MCP_OBJECT", durableObjectNamespace = "McpObject")');
    expect(config).toContain('(className = "McpObject", uniqueKey = "McpObject", enableSql = true)');
    expect(config).toContain('compatibilityFlags = ["no_nodejs_compat"]');
    expect(config).toContain('(name = "do-storage", disk = (path = "/tmp/state", writable = true))');
  });
});
