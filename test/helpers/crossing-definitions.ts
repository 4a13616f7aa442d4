/**
 * The definitions the principal-crossing tests serve (test/helpers/principal-crossings.ts), with no
 * test-runner import, so a Worker bundled for workerd can serve them too.
 */
import { z } from "zod";
import { defineResource, defineTool, type ResourceDefinition, type ToolDefinition } from "../../src/index.ts";

/** The resource alice may subscribe to (and bob must not subscribe her session to). */
export const NOTES_URI = "notes://alice";
/**
 * `tell` sends a log message to a session's GET stream (`notifySession`) and says whether it went;
 * `secret` streams a progress naming the caller's secret, then returns it.
 */
export function crossingTools(): ToolDefinition[] {
  return [
    defineTool({
      name: "tell",
      description: "Sends a log message to the GET stream of a session",
      input: z.object({ sessionId: z.string(), text: z.string() }),
      handler: async (event, { sessionId, text }) => {
        const mcp = event.context.mcp!;
        return String(await mcp.notifySession(sessionId, "notifications/message", { level: "info", data: text }));
      },
    }),
    defineTool({
      name: "secret",
      description: "Streams the caller's secret as progress, then returns it",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        await mcp.progress(1, 2, `progress-secret-of-${mcp.principal}`);
        return `result-secret-of-${mcp.principal}`;
      },
    }),
  ];
}

export function crossingResources(): ResourceDefinition[] {
  return [defineResource({ uri: NOTES_URI, name: "notes", handler: () => "alice's notes" })];
}
