/**
 * A server whose definitions walk client data in the ways that once cost more than linear time: a
 * sampled answer read from a Markdown fence, a URI template with dots between its variables, and
 * `uniqueItems` over objects. Run in a child process (Node 22 strips the types) so that a test can
 * time a request and kill a server stuck in super-linear work: in-process, it would block the test.
 *
 * Usage: node test/hostile/servers/costly-paths.ts <h3-v2|h3-v1>; prints `{"url": …}` once listening.
 */
import { z } from "zod";
import { defineMcpHandler, defineResourceTemplate, defineTool } from "../../../src/index.ts";
import { startHost, type HostName } from "../../helpers/hosts.ts";

const handler = defineMcpHandler({
  name: "costly-paths",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "fenced",
      handler: async (event) => {
        const answer = await event.context.mcp!.sample("llm", 'Reply with {"ok": true}', {
          schema: z.object({ ok: z.boolean() }),
        });
        return `ok=${String(answer.data.ok)}`;
      },
    }),
    defineTool({
      name: "unique",
      input: { type: "object", properties: { items: { type: "array", uniqueItems: true } } },
      handler: (_event, args) => `unique ${(args.items as unknown[]).length}`,
    }),
  ],
  resources: [
    defineResourceTemplate({
      uriTemplate: "tile://{z}.{x}.{y}",
      name: "tile",
      handler: (_event, { z: zoom, x, y }) => `tile ${zoom}/${x}/${y}`,
    }),
  ],
});

const running = await startHost((process.argv[2] ?? "h3-v2") as HostName, handler);
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
