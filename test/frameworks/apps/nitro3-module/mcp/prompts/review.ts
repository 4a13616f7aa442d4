export default defineMcpPrompt({
  description: "Asks for a review of some code",
  arguments: [{ name: "code", required: true }],
  handler: (event, { code }) => `Please review: ${code}`,
});
