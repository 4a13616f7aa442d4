/** The MCP endpoint of this nitro 3 app, mounted on /mcp by mcpNitroModule. */
import { defineMcpHandler, defineTool } from "mcp-h3";
import { z } from "zod";

export default defineMcpHandler({
  name: "nitro3-example",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "greet",
      description: "Asks for a name, then greets",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        const answer = await mcp.elicit("name", "What is your name?", z.object({ name: z.string() }));
        return answer.action === "accept" && answer.content ? `Hello, ${answer.content.name}!` : "Hello!";
      },
    }),
  ],
});
