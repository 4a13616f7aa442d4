// Workers entry: mcp-h3, one tool, zod input schema, served by the handler's own fetch.
import * as z from "zod";
import { defineMcpHandler, defineTool } from "../../dist/index.mjs";

const handler = defineMcpHandler({
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

export default { fetch: handler.fetch };
