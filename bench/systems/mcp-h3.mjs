/**
 * mcp-h3 (the root's built dist/, on the root's h3 v2): the one-tool `echo` server mounted as a
 * route of an h3 v2 app, as a user mounts it, plus a `progress` tool for the streaming scenario.
 * In-process requests go through the h3 app's fetch (same router work as the bare route);
 * the socket server is h3 v2 + node:http via toNodeHandler (the playground-style node server).
 */
import { createServer } from "node:http";
import { H3, toNodeHandler } from "h3";
import * as z from "zod";
import { defineMcpHandler, defineTool } from "../../dist/index.mjs";

export const info = {
  name: "mcp-h3",
  label: "mcp-h3 (h3 v2 route)",
  modern: true,
  nodeServer: "h3 v2 toNodeHandler + node:http (playground-style)",
  legacy: "session",
};

/** The form of the `ask` tool's one question. */
const CONFIRM_FORM = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };

/** The bench's handler; `extraTools` join the three tools (the tasks scenario adds a task tool). */
export function createHandler(options = {}, extraTools = []) {
  return defineMcpHandler({
    name: "bench",
    version: "1.0.0",
    ...options,
    tools: [
      ...extraTools,
      defineTool({
        name: "echo",
        description: "Echoes the text back",
        input: z.object({ text: z.string() }),
        handler: (_event, { text }) => text,
      }),
      defineTool({
        name: "progress",
        description: "Reports `count` progress notifications, then answers",
        input: z.object({ count: z.number() }),
        handler: async (event, { count }) => {
          const mcp = event.context.mcp;
          for (let i = 1; i <= count; i++) await mcp.progress(i, count);
          return `done ${count}`;
        },
      }),
      defineTool({
        name: "ask",
        description: "Asks for one confirmation (multi round-trip on the modern era), keeping a state across it",
        handler: async (event) => {
          const mcp = event.context.mcp;
          mcp.state ??= { order: "o-17", step: 1 };
          const answer = await mcp.elicit("confirm", "Confirm the order?", CONFIRM_FORM);
          return `confirmed ${answer.content?.ok}`;
        },
      }),
    ],
  });
}

function createApp(options) {
  return new H3().all("/mcp", createHandler(options));
}

/** In-process: the h3 app's fetch. `options` are defineMcpHandler options (e.g. sessions). */
export async function create(options) {
  const app = createApp(options);
  return { fetch: (request) => app.fetch(request) };
}

export async function createNodeServer() {
  return createServer(toNodeHandler(createApp()));
}
