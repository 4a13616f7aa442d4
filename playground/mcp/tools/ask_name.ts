/** Elicitation: the server asks the user a question in the middle of the call, and waits for the answer. */
import { z } from "zod";

export default defineMcpTool({
  description: "Asks for your name (elicitation) and greets you.",
  handler: async (event) => {
    const mcp = event.context.mcp;
    // Throws a JSON-RPC error (-32021) when the client did not declare the elicitation capability.
    const answer = await mcp.elicit("name", "What is your name?", z.object({ name: z.string() }));
    if (answer.action !== "accept" || !answer.content) return `No name given (${answer.action}).`;
    return `Hello, ${answer.content.name}!`;
  },
});
