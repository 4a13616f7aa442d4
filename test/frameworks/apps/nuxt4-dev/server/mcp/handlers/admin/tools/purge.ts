// A tool of the second endpoint, /mcp/admin: the DevTools give it a tab of its own.
export default defineMcpTool({
  description: "Purges the caches",
  handler: () => "purged",
});
