/** The tool "greet", named after this file and served on /mcp by the module (mcp-h3/nitro). */
import { defineMcpTool } from "mcp-h3/definitions"; // optional: the module imports it into the files under mcp/
import { z } from "zod";

export default defineMcpTool({
  description: "Asks for a name, then greets",
  handler: async (event) => {
    const answer = await event.context.mcp.elicit("name", "What is your name?", z.object({ name: z.string() }));
    return answer.action === "accept" && answer.content ? `Hello, ${answer.content.name}!` : "Hello!";
  },
});
