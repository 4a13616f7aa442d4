// server/mcp/apps/countdown.ts: the tool "countdown", with a view
import { useStorage } from "nitropack/runtime";
import { defineMcpApp } from "mcp-h3/definitions";
import { z } from "zod";

export default defineMcpApp({
  description: "Counts down from `from` seconds, asks for a go, then lifts off",
  input: z.object({ from: z.number().int().min(1).max(10) }),
  task: "optional",
  handler: async (event, { from }) => {
    const mcp = event.context.mcp;
    for (let left = from; left > 0; left--) {
      await mcp.progress(from - left, from, `${left} s left`);
      await mcp.task?.setStatusMessage(`${left} s left`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const answer = await mcp.elicit("go", "Lift off?", z.object({ go: z.boolean() }));
    const launched = answer.action === "accept" && answer.content?.go === true;
    return {
      content: [{ type: "text", text: launched ? "Lift off!" : "Launch held." }],
      structuredContent: { from, launched },
    };
  },
  view: { html: () => useStorage("assets:server").getItem<string>("countdown.html") },
});
