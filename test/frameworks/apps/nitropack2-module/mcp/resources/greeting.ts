export default defineMcpResource({
  uri: "note://greeting",
  description: "A greeting",
  mimeType: "text/plain",
  handler: () => "Hello from a file",
});
