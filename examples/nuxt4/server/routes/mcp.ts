/** The MCP endpoint of this Nuxt app: a server route answers every method on /mcp. */
import { defineMcpHandler, defineTool } from "mcp-h3";
import { z } from "zod";

export default defineMcpHandler({
  name: "nuxt4-example",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "greet",
      description: "Asks for a name, then greets",
      handler: async (event) => {
        // Typed in every server route: event.context.mcp is the MCP context of the call.
        const mcp = event.context.mcp!;
        const answer = await mcp.elicit("name", "What is your name?", z.object({ name: z.string() }));
        return answer.action === "accept" && answer.content ? `Hello, ${answer.content.name}!` : "Hello!";
      },
    }),
  ],
});
