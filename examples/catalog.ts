/**
 * The small catalog every example serves: a tool that reports progress, one that asks the user
 * (over the session's stream on legacy clients, as an input round on modern ones) and one that
 * announces a change of the tool list (to sessions and to modern clients' listen streams).
 */
import { defineTool } from "mcp-h3";

export const countdown = defineTool({
  name: "countdown",
  description: "Counts down from 3, reporting each step as progress",
  handler: async (event) => {
    const mcp = event.context.mcp!;
    for (let step = 1; step <= 3; step++) await mcp.progress(step, 3, `${4 - step}…`);
    return "liftoff";
  },
});

export const greet = defineTool({
  name: "greet",
  description: "Asks the user for their name, then greets them",
  handler: async (event) => {
    const answer = await event.context.mcp!.elicit("name", "What is your name?", {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    });
    return answer.action === "accept" ? `Hello, ${String(answer.content.name)}!` : "Hello, stranger!";
  },
});

export const announce = defineTool({
  name: "announce",
  description: "Tells connected clients that the tool list changed",
  handler: async (event) => {
    await event.context.mcp!.notify.toolsChanged();
    return "announced";
  },
});

export const tools = [countdown, greet, announce];
