/** The playground's own README, a fixed resource. */
export default defineMcpResource({
  uri: "playground://readme",
  title: "Playground README",
  mimeType: "text/markdown",
  handler: () =>
    [
      "# mcp-h3 playground",
      "",
      "Tools: `whoami`, `count_slowly`, `log_levels`, `ask_name`, `weather` (the README's 30-second example,",
      "which its curl commands call), and `show_weather`, an MCP App:",
      "hosts that render MCP Apps show its result in a view (`ui://weather/view.html`), whose Refresh",
      "button calls `refresh_weather` through the host.",
      "Resources: this page and `playground://notes/{id}`.",
      "Prompt: `review_note` (its `id` argument completes).",
    ].join("\n"),
});
