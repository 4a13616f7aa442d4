/**
 * mcp-h3/testing against a running server by its URL (a real server on a port, h3 v2 and h3 v1), and
 * with auth on: no token is a 401 and a missing scope a 403, each the SDK's HTTP error carrying the
 * server's message, at once; the `headers` option's bearer token gets in. Both eras.
 */
import { SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool, type ToolDefinition } from "../src/index.ts";
import { createMcpTestClient, textOf } from "../src/_entries/testing.ts";
import { bearer, staticAuth } from "./helpers/auth.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { buildEventHandler, buildFetchHandler, serverOptions } from "./helpers/testing-server.ts";

const ERAS = ["legacy", "modern"] as const;

describe.each(HOSTS)("createMcpTestClient on the URL of a server on %s", (host) => {
  const handler = buildEventHandler();
  let server: RunningHost;
  beforeAll(async () => {
    server = await startHost(host, handler);
  });
  afterAll(async () => {
    await server.close();
    await handler.close();
  });

  it.each(ERAS)("calls tools, answers elicitations and runs a task in the %s era", async (era) => {
    await using client = await createMcpTestClient(server.url, {
      era,
      elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    expect(client.era).toBe(era);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "over the wire" } }))).toBe("over the wire");
    expect(textOf(await client.callTool({ name: "greet", arguments: {} }))).toBe("Hello, Ada!");
    expect(textOf(await client.runTask({ name: "report", arguments: {} }))).toBe("report for Ada");
  });
});

describe("createMcpTestClient with auth on", () => {
  const guarded = defineTool({ name: "erase", scopes: ["write"], handler: () => "erased" });
  const handler = buildFetchHandler({
    auth: staticAuth(),
    tools: [...(serverOptions().tools as ToolDefinition[]), guarded],
  });
  afterAll(() => handler.close());

  describe.each(ERAS)("in the %s era", (era) => {
    it("fails to connect without a token: a 401 with the server's message, at once", async () => {
      const error = await createMcpTestClient(handler, { era }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SdkHttpError);
      expect((error as SdkHttpError).code).toBe(SdkErrorCode.ClientHttpAuthentication);
      expect((error as SdkHttpError).status).toBe(401);
      expect((error as SdkHttpError).message).toBe(
        "HTTP 401: Unauthorized: this server needs an Authorization: Bearer token",
      );
    });

    it("gets in with the headers option's bearer token, and a missing scope is a 403 with the server's message", async () => {
      await using reader = await createMcpTestClient(handler, { era, headers: bearer("reader-token") });
      expect(textOf(await reader.callTool({ name: "echo", arguments: { text: "in" } }))).toBe("in");
      const error = await reader.callTool({ name: "erase", arguments: {} }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SdkHttpError);
      expect((error as SdkHttpError).code).toBe(SdkErrorCode.ClientHttpForbidden);
      expect((error as SdkHttpError).status).toBe(403);
      expect((error as SdkHttpError).message).toBe("HTTP 403: Forbidden: this needs the scopes write");
      await using writer = await createMcpTestClient(handler, { era, headers: bearer("alice-token") });
      expect(textOf(await writer.callTool({ name: "erase", arguments: {} }))).toBe("erased");
    });
  });
});
