/** An ordinary route next to MCP: h3's helpers must keep working. */
import { defineHandler, getQuery, readBody } from "nitro/h3";

export default defineHandler(async (event) => {
  const query = getQuery(event);
  const body = await readBody<{ word: string }>(event);
  return { query, word: body?.word, mcpOnOtherRoutes: event.context.mcp === undefined ? "absent" : "present" };
});
