import { describe, it, expect } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { HOSTS, startHost } from "./helpers/hosts.ts";

describe.each(HOSTS)("smoke on %s", (host) => {
  it("lists and calls", async () => {
    const handler = defineMcpHandler({
      name: "smoke",
      version: "1.0.0",
      logging: true,
      tools: [
        defineTool({
          name: "add",
          input: z.object({ a: z.number(), b: z.number() }),
          handler: async (event, { a, b }) => {
            const mcp = event.context.mcp!;
            await mcp.progress(1, 2, "half");
            await mcp.log("info", "adding");
            return String(a + b);
          },
        }),
      ],
    });
    const server = await startHost(host, handler);
    const client = new Client({ name: "c", version: "1" });
    const logs: unknown[] = [];
    client.setNotificationHandler(
      (await import("@modelcontextprotocol/sdk/types.js")).LoggingMessageNotificationSchema,
      (n) => void logs.push(n.params),
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["add"]);
    const progress: unknown[] = [];
    const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } }, undefined, {
      onprogress: (p) => void progress.push(p),
    });
    expect(result.content).toEqual([{ type: "text", text: "3" }]);
    expect(progress).toHaveLength(1);
    expect(logs).toHaveLength(1);
    await client.close();
    await server.close();
  });
});
