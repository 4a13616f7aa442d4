/** Tool, resource and prompt definitions that the legacy- and modern-client test servers both serve. */
import { z } from "zod";
import {
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type ResourceTemplateOptions,
} from "../../src/index.ts";

const USER_IDS = ["alice", "albert", "bob"];
const STYLES = ["formal", "friendly", "funny"];

export const addTool = defineTool({
  name: "add",
  description: "Adds two numbers",
  input: z.object({ a: z.number(), b: z.number() }),
  handler: (_event, { a, b }) => String(a + b),
});

export const stepsTool = defineTool({
  name: "steps",
  description: "Three progress steps and a log line",
  handler: async (event) => {
    const mcp = event.context.mcp!;
    for (let step = 1; step <= 3; step++) await mcp.progress(step, 3, `step ${step}`);
    await mcp.log("info", { done: 3 }, "steps");
    return "stepped";
  },
});

export const chattyTool = defineTool({
  name: "chatty",
  description: "Logs one info and one error line, in that order",
  handler: async (event) => {
    const mcp = event.context.mcp!;
    await mcp.log("info", "info line");
    await mcp.log("error", "error line");
    return "logged";
  },
});

export const readmeResource = defineResource({
  uri: "docs://readme",
  name: "readme",
  mimeType: "text/markdown",
  handler: () => "# Readme",
});

/** `users://{id}/profile`, completing `id` from a fixed list; what a read returns is the caller's. */
export function userProfileTemplate(handler: ResourceTemplateOptions<"id">["handler"]) {
  return defineResourceTemplate({
    uriTemplate: "users://{id}/profile",
    name: "user-profile",
    mimeType: "application/json",
    complete: { id: (typed) => USER_IDS.filter((id) => id.startsWith(typed)) },
    handler,
  });
}

export const greetPrompt = definePrompt({
  name: "greet",
  arguments: [{ name: "name", required: true }, { name: "style" }],
  complete: { style: (typed) => STYLES.filter((style) => style.startsWith(typed)) },
  handler: (_event, { name, style }) => `Greet ${name} in a ${style ?? "plain"} way`,
});
