// Workers entry: the bare h3 v2 route (no MCP) doing the echo JSON work.
import { H3 } from "h3";

const app = new H3().post("/mcp", async (event) => {
  const body = await event.req.json();
  return { jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: body.params.arguments.text }] } };
});

export default { fetch: app.fetch };
