// Workers entry: mcp-h3, one tool, plain JSON Schema input (no zod), served by defineMcpFetchHandler, the fetch entry
// the README gives Workers users (no h3 adapter, no Node request handling).
import { defineMcpFetchHandler, defineTool } from "../../dist/index.mjs";

export default defineMcpFetchHandler({
  name: "bench",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "echo",
      description: "Echoes the text back",
      input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      handler: (_event, { text }) => text,
    }),
  ],
});
