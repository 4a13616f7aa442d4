/** An ordinary route next to MCP: Nitro's auto-imported h3 helpers must keep working. */
export default defineEventHandler(async (event) => {
  const query = getQuery(event);
  const body = await readBody<{ word: string }>(event);
  return { query, word: body.word, mcpOnOtherRoutes: event.context.mcp === undefined ? "absent" : "present" };
});
