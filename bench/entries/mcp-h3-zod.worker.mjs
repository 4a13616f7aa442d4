// Workers entry: mcp-h3, one tool, zod input schema, served by defineMcpFetchHandler, the fetch entry
// the README gives Workers users (no h3 adapter, no Node request handling).
import * as z from "zod";
import { defineMcpFetchHandler, defineTool } from "../../dist/index.mjs";

export default defineMcpFetchHandler({
  name: "bench",
  version: "1.0.0",
  tools: [
    defineTool({
      name: "echo",
      description: "Echoes the text back",
      input: z.object({ text: z.string() }),
      handler: (_event, { text }) => text,
    }),
  ],
});
