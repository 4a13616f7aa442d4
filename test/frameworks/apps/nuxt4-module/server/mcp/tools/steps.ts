export default defineMcpTool({
  description: "Three progress steps",
  handler: async (event) => {
    for (let step = 1; step <= 3; step++) await event.context.mcp.progress(step, 3, `step ${step}`);
    return "stepped";
  },
});
