import { z } from "zod";
export default defineMcpTool({
  description: "Asks the user for a name",
  handler: async (event) => {
    const mcp = event.context.mcp;
    const answer = await mcp.elicit("who", "Who are you?", z.object({ name: z.string() }));
    return JSON.stringify({ era: mcp.era, answer });
  },
});
