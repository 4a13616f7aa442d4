/**
 * tmcp 1.20 + @tmcp/transport-http 0.9 with the zod adapter: one long-lived server, in-memory
 * sessions for initialization-based (legacy) clients, per-request serving for 2026-07-28.
 * Node: `createRequestListener` from @remix-run/node-fetch-server, as the transport's README shows.
 */
import { createServer } from "node:http";
import { McpServer } from "tmcp";
import { HttpTransport } from "@tmcp/transport-http";
import { ZodJsonSchemaAdapter } from "@tmcp/adapter-zod";
import { createRequestListener } from "@remix-run/node-fetch-server";
import * as z from "zod";

export const info = {
  name: "tmcp",
  label: "tmcp + transport-http",
  modern: true,
  nodeServer: "@remix-run/node-fetch-server createRequestListener + node:http",
  legacy: "session",
  // A request with the id of a DELETEd session is still answered 200 (seen in the memory scenario,
  // which records it instead of failing on it: tmcp is measured there, not judged).
  deleteEndsSession: false,
};

function createTransport() {
  const server = new McpServer(
    { name: "bench", version: "1.0.0", description: "bench" },
    { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } },
  );
  server.tool(
    { name: "echo", description: "Echoes the text back", schema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.tool(
    {
      name: "progress",
      description: "Reports `count` progress notifications, then answers",
      schema: z.object({ count: z.number() }),
    },
    async ({ count }) => {
      for (let i = 1; i <= count; i++) await server.progress(i, count);
      return { content: [{ type: "text", text: `done ${count}` }] };
    },
  );
  return new HttpTransport(server, { path: "/mcp", allowedOrigins: [] });
}

async function respond(transport, request) {
  return (await transport.respond(request)) ?? new Response(null, { status: 404 });
}

export async function create() {
  const transport = createTransport();
  return { fetch: (request) => respond(transport, request) };
}

export async function createNodeServer() {
  const transport = createTransport();
  return createServer(createRequestListener((request) => respond(transport, request)));
}
