// Served at the admin endpoint alone.
export default defineMcpTool({
  description: "Purge the caches",
  handler: () => "purged",
});
