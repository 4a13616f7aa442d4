/**
 * Scopes and `enabled` per definition, on h3 v2 and h3 v1 with the real clients of both eras: lists
 * leave out what the token may not use, a call without the scopes gets one 403 challenge naming
 * every scope needed (handler-level and the definition's), and a disabled definition does not exist.
 */
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, definePrompt, defineResource, defineResourceTemplate, defineTool } from "../src/index.ts";
import { CLIENTS } from "./helpers/clients.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";
import { METADATA_URL, legacyPost, modernPost, staticAuth } from "./helpers/auth.ts";
import { expectError, single } from "./helpers/rpc.ts";

const beta = { on: false };

function handler() {
  return defineMcpHandler({
    name: "scopes",
    version: "1.0.0",
    auth: staticAuth({ scopes: ["read"] }),
    tools: [
      defineTool({ name: "read_notes", description: "Reads", handler: () => "notes" }),
      defineTool({ name: "save_note", description: "Writes", scopes: ["write"], handler: () => "saved" }),
      defineTool({ name: "purge", description: "Admin only", scopes: ["admin", "write"], handler: () => "purged" }),
      defineTool({ name: "beta", description: "Switched per request", enabled: () => beta.on, handler: () => "beta" }),
    ],
    resources: [
      defineResource({ uri: "notes://public", name: "public", handler: () => "public" }),
      defineResource({ uri: "notes://private", name: "private", scopes: ["write"], handler: () => "private" }),
      defineResourceTemplate({
        uriTemplate: "drafts://{id}",
        name: "drafts",
        scopes: ["write"],
        handler: (_event, { id }) => `draft ${id}`,
      }),
    ],
    prompts: [
      definePrompt({ name: "summarise", handler: () => "Summarise" }),
      definePrompt({ name: "rewrite", scopes: ["write"], handler: () => "Rewrite" }),
    ],
  });
}

describe.each(HOSTS)("definition scopes on %s", (host) => {
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost(host, handler());
  });
  afterAll(() => server.close());

  it("lists only what the token may use, for every client", async () => {
    beta.on = false;
    for (const factory of CLIENTS) {
      for (const [token, tools] of [
        ["reader-token", ["read_notes"]],
        ["alice-token", ["read_notes", "save_note"]],
      ] as const) {
        const client = await factory.connect(server.url, {}, token);
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(tools);
        const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.name);
        expect(templates).toEqual(token === "alice-token" ? ["drafts"] : []);
        await client.close();
      }
    }
    const modern = await connectModern(server.url, MODERN_MODES[0]!, {}, {}, "reader-token");
    expect((await modern.client.listResources()).resources.map((r) => r.name)).toEqual(["public"]);
    expect((await modern.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["summarise"]);
    await modern.close();
    const alice = await connectModern(server.url, MODERN_MODES[0]!, {}, {}, "alice-token");
    expect((await alice.client.listResources()).resources.map((r) => r.name)).toEqual(["public", "private"]);
    expect((await alice.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["summarise", "rewrite"]);
    expect((await alice.client.callTool({ name: "save_note", arguments: {} })).content).toEqual([
      { type: "text", text: "saved" },
    ]);
    await alice.close();
  });

  for (const [era, send] of [
    ["modern", modernPost],
    ["legacy", legacyPost],
  ] as const) {
    it(`${era}: a call, read or get without the definition's scopes gets one 403 naming all of them`, async () => {
      const denied: [string, string, Record<string, unknown>, string][] = [
        ["reader-token", "tools/call", { name: "save_note", arguments: {} }, "read write"],
        ["alice-token", "tools/call", { name: "purge", arguments: {} }, "read admin write"],
        ["reader-token", "resources/read", { uri: "notes://private" }, "read write"],
        ["reader-token", "resources/read", { uri: "drafts://7" }, "read write"],
        ["reader-token", "prompts/get", { name: "rewrite" }, "read write"],
      ];
      for (const [token, method, params, scope] of denied) {
        const answer = await send(server.url, token, method, params);
        expectError(answer, 403, -32000, /Forbidden/);
        const challenge = extractWWWAuthenticateParams(new Response(null, { headers: answer.headers }));
        expect(challenge).toMatchObject({ error: "insufficient_scope", scope });
        expect(challenge.resourceMetadataUrl?.href).toBe(METADATA_URL);
        expect(answer.text).not.toMatch(/saved|private|draft 7|Rewrite|purged/);
      }
      const allowed = await send(server.url, "alice-token", "resources/read", { uri: "drafts://7" });
      expect(JSON.stringify(single(allowed).result)).toContain("draft 7");
    });

    it(`${era}: a disabled definition is an unknown tool, and appears once enabled`, async () => {
      beta.on = false;
      const off = single(await send(server.url, "alice-token", "tools/call", { name: "beta", arguments: {} }));
      expect(off.error).toMatchObject({ code: -32602, message: 'Unknown tool: "beta"' });
      const listed = single(await send(server.url, "alice-token", "tools/list", {}));
      expect((listed.result!.tools as { name: string }[]).map((tool) => tool.name)).not.toContain("beta");
      beta.on = true;
      const on = single(await send(server.url, "reader-token", "tools/call", { name: "beta", arguments: {} }));
      expect(on.result!.content).toEqual([{ type: "text", text: "beta" }]);
      beta.on = false;
    });
  }
});
