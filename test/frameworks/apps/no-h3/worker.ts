/** A Worker's module: MCP from a fetch handler, with no h3 installed. */
import { defineMcpFetchHandler, defineTool } from "mcp-h3";

export default defineMcpFetchHandler({
  name: "worker",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "hello",
      description: "Greets",
      handler: async (event) => `hello over ${event.context.mcp!.era}`,
    }),
  ],
});
