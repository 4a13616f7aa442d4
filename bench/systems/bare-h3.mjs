/**
 * The baseline: a bare h3 v2 route doing the same JSON work as an MCP tools/call (parse the body,
 * echo the argument back in a JSON-RPC result) with no MCP at all. Its throughput is the limit
 * for mcp-h3 on the same h3. A second route streams N progress frames as SSE, the limit for the
 * streaming scenario.
 */
import { createServer } from "node:http";
import { H3, toNodeHandler } from "h3";

export const info = {
  name: "bare-h3",
  label: "bare h3 v2 route",
  modern: true,
  nodeServer: "h3 v2 toNodeHandler + node:http",
  // Not MCP: no sessions; the legacy scenario sends the same body to the same route.
  legacy: "none",
  streamPath: "/stream",
};

const encoder = new TextEncoder();

function createApp() {
  return new H3()
    .post("/mcp", async (event) => {
      const body = await event.req.json();
      return { jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: body.params.arguments.text }] } };
    })
    .post("/stream", async (event) => {
      const body = await event.req.json();
      const count = body.params.arguments.count;
      const token = body.params._meta?.progressToken;
      let i = 0;
      const stream = new ReadableStream({
        pull(controller) {
          if (i < count) {
            i++;
            const note = {
              jsonrpc: "2.0",
              method: "notifications/progress",
              params: { progressToken: token, progress: i, total: count },
            };
            controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(note)}\n\n`));
            return;
          }
          const result = {
            jsonrpc: "2.0",
            id: body.id,
            result: { content: [{ type: "text", text: `done ${count}` }] },
          };
          controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(result)}\n\n`));
          controller.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
    });
}

/** In-process: the h3 app's fetch. */
export async function create() {
  const app = createApp();
  return { fetch: (request) => app.fetch(request) };
}

/** Over sockets: the same app through h3's node adapter. */
export async function createNodeServer() {
  return createServer(toNodeHandler(createApp()));
}
