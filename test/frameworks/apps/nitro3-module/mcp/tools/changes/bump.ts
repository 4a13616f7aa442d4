// In a subfolder, which only groups files: still the tool "bump".
export default defineMcpTool({
  description: "Announces that the tool list changed",
  handler: async (event) => {
    await event.context.mcp.notify.toolsChanged();
    return "bumped";
  },
});
