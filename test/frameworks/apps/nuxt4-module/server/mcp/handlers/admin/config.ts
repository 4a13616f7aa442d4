// The admin endpoint's code options: a tool given in code, served beside its files.
import { defineTool } from "mcp-h3";
export default defineMcpConfig({
  tools: [defineTool({ name: "audit", description: "Audit the admin endpoint", handler: () => "audited" })],
});
