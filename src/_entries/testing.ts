/**
 * mcp-h3/testing: test your own MCP server with the official client, in process. `createMcpTestClient`
 * connects `@modelcontextprotocol/client` (2.x, an optional peer of this entry) to a handler, an h3
 * app or a URL, in either protocol era, with answers for the server's elicitation, sampling and roots
 * requests; the same test runs in both eras. Nothing of it is in the core: only tests import it.
 *
 * @example
 * import { createMcpTestClient, textOf } from "mcp-h3/testing";
 * await using client = await createMcpTestClient(handler, { era: "modern" });
 * expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
 */
export { createMcpTestClient } from "../testing/connect.ts";
export { McpTestClient, type McpTestNotification } from "../testing/client.ts";
export { textOf } from "../testing/text.ts";
export type {
  McpTestAppView,
  McpTestClientOptions,
  McpTestDirectoryChild,
  McpTestElicitation,
  McpTestEra,
  McpTestSampling,
  McpTestSkill,
  McpTestSkillFile,
  McpTestTarget,
  McpTestTask,
  McpTestTaskOutcome,
  McpTestTaskStatus,
} from "../types/testing.ts";
