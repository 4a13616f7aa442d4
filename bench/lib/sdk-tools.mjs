/**
 * The bench's two tools written with the SDK v2 server API (`server.registerTool`), which SDK v2 and
 * mcp-handler (a layer over it) share: `echo`, and `progress` for the streaming scenario.
 */
import * as z from "zod";

export function registerBenchTools(server) {
  server.registerTool(
    "echo",
    { description: "Echoes the text back", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(
    "progress",
    {
      description: "Reports `count` progress notifications, then answers",
      inputSchema: z.object({ count: z.number() }),
    },
    async ({ count }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= count; i++) {
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress: i, total: count },
        });
      }
      return { content: [{ type: "text", text: `done ${count}` }] };
    },
  );
}
