/**
 * Scopes and `enabled` reach the two indirect ways to a definition, on h3 v2 and h3 v1 with the
 * real clients of both eras: `completion/complete` of a prompt or template the token lacks scopes
 * for gets the same 403 challenge as getting or reading it (and no values); one `enabled` says no to
 * is unknown, as a prompt that does not exist. `mcp.readResource` in a handler refuses a resource
 * the caller lacks scopes for (`-32000` "Forbidden", `data.requiredScopes`) and does not find a
 * disabled one.
 */
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, definePrompt, defineResource, defineResourceTemplate, defineTool } from "../src/index.ts";
import { CLIENTS } from "./helpers/clients.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";
import { METADATA_URL, legacyPost, modernPost, staticAuth } from "./helpers/auth.ts";
import { expectError, single } from "./helpers/rpc.ts";

const STYLES = { style: () => ["formal", "friendly"] };

function handler() {
  return defineMcpHandler({
    name: "indirect",
    version: "1.0.0",
    auth: staticAuth({ scopes: ["read"] }),
    tools: [
      defineTool({
        name: "quote",
        description: "Reads one of the server's resources for the caller",
        handler: async (event, args: { uri?: unknown }) => {
          const read = await event.context.mcp!.readResource(String(args.uri));
          return (read.contents[0] as { text: string }).text;
        },
      }),
    ],
    resources: [
      defineResource({ uri: "notes://public", name: "public", handler: () => "public text" }),
      defineResource({ uri: "notes://private", name: "private", scopes: ["write"], handler: () => "private text" }),
      defineResource({ uri: "notes://hidden", name: "hidden", enabled: () => false, handler: () => "hidden text" }),
      defineResourceTemplate({
        uriTemplate: "drafts://{id}",
        name: "drafts",
        scopes: ["write"],
        complete: { id: () => ["draft-7", "draft-8"] },
        handler: (_event, { id }) => `draft text ${id}`,
      }),
    ],
    prompts: [
      definePrompt({ name: "summarise", arguments: [{ name: "style" }], complete: STYLES, handler: () => "S" }),
      definePrompt({
        name: "rewrite",
        scopes: ["write"],
        arguments: [{ name: "style" }],
        complete: STYLES,
        handler: () => "R",
      }),
      definePrompt({
        name: "beta",
        enabled: () => false,
        arguments: [{ name: "style" }],
        complete: STYLES,
        handler: () => "B",
      }),
    ],
  });
}

const completeRewrite = { ref: { type: "ref/prompt", name: "rewrite" }, argument: { name: "style", value: "f" } };
const completeDrafts = { ref: { type: "ref/resource", uri: "drafts://{id}" }, argument: { name: "id", value: "d" } };
const completePrivate = { ref: { type: "ref/resource", uri: "notes://private" }, argument: { name: "x", value: "" } };

describe.each(HOSTS)("scopes in completions and mcp.readResource on %s", (host) => {
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost(host, handler());
  });
  afterAll(() => server.close());

  for (const [era, send] of [
    ["modern", modernPost],
    ["legacy", legacyPost],
  ] as const) {
    it(`${era}: completing a prompt or template without its scopes gets the 403 of getting it, and no values`, async () => {
      for (const params of [completeRewrite, completeDrafts, completePrivate]) {
        const answer = await send(server.url, "reader-token", "completion/complete", params);
        expectError(answer, 403, -32000, /Forbidden/);
        const challenge = extractWWWAuthenticateParams(new Response(null, { headers: answer.headers }));
        expect(challenge).toMatchObject({ error: "insufficient_scope", scope: "read write" });
        expect(challenge.resourceMetadataUrl?.href).toBe(METADATA_URL);
        expect(answer.text).not.toMatch(/formal|draft-7/);
      }
      const allowed = single(await send(server.url, "alice-token", "completion/complete", completeDrafts));
      expect(allowed.result?.completion).toMatchObject({ values: ["draft-7", "draft-8"] });
    });

    it(`${era}: completing a disabled prompt is answered as completing one that does not exist`, async () => {
      const complete = (name: string) => ({
        ref: { type: "ref/prompt", name },
        argument: { name: "style", value: "" },
      });
      const disabled = single(await send(server.url, "alice-token", "completion/complete", complete("beta")));
      const missing = single(await send(server.url, "alice-token", "completion/complete", complete("nope")));
      expect(disabled.error).toEqual({ code: -32602, message: 'Unknown prompt: "beta"' });
      expect(missing.error).toEqual({ code: -32602, message: 'Unknown prompt: "nope"' });
    });

    it(`${era}: mcp.readResource refuses what the caller may not read, and does not find a disabled resource`, async () => {
      for (const uri of ["notes://private", "drafts://7"]) {
        const answer = await send(server.url, "reader-token", "tools/call", { name: "quote", arguments: { uri } });
        const error = single(answer).error!;
        expect(error).toEqual({
          code: -32000,
          message: `Forbidden: reading "${uri}" needs the scopes write`,
          data: { uri, requiredScopes: ["write"] },
        });
        expect(answer.text).not.toContain("text");
      }
      const notFound = era === "legacy" ? -32002 : -32602;
      for (const uri of ["notes://hidden", "notes://nothing"]) {
        const answer = await send(server.url, "alice-token", "tools/call", { name: "quote", arguments: { uri } });
        expect(single(answer).error).toEqual({
          code: notFound,
          message: `Resource not found: "${uri}"`,
          data: { uri },
        });
      }
    });
  }

  it("the real clients: alice completes and quotes what reader is refused", async () => {
    for (const factory of CLIENTS) {
      const reader = await factory.connect(server.url, {}, "reader-token");
      await expect(reader.complete(completeRewrite as never)).rejects.toThrow(/403|Forbidden|Insufficient scope/);
      await expect(reader.callTool("quote", { uri: "notes://private" })).rejects.toThrow(/Forbidden/);
      expect((await reader.callTool("quote", { uri: "notes://public" })).content?.[0]?.text).toBe("public text");
      await reader.close();
      const alice = await factory.connect(server.url, {}, "alice-token");
      expect((await alice.complete(completeRewrite as never)).completion.values).toEqual(["formal", "friendly"]);
      expect((await alice.callTool("quote", { uri: "drafts://7" })).content?.[0]?.text).toBe("draft text 7");
      await alice.close();
    }
    const modern = await connectModern(server.url, MODERN_MODES[0]!, {}, {}, "reader-token");
    await expect(modern.client.complete(completeDrafts as never)).rejects.toThrow(/403|Forbidden|Insufficient scope/);
    await expect(modern.client.callTool({ name: "quote", arguments: { uri: "drafts://7" } })).rejects.toThrow(
      /Forbidden/,
    );
    await modern.close();
    const alice = await connectModern(server.url, MODERN_MODES[0]!, {}, {}, "alice-token");
    expect((await alice.client.complete(completeDrafts as never)).completion.values).toEqual(["draft-7", "draft-8"]);
    await alice.close();
  });
});
