// MCP on a Cloudflare Worker, stateful across isolates: every MCP request goes to the Durable Object
// of `defineMcpWorker`, which keeps sessions, event logs and tasks in its SQLite storage. The
// definitions are those of the conformance fixture (`npm run fixture`); put your own in their place.
import { defineMcpWorker, type DurableObjectNamespace } from "mcp-h3/cloudflare";
import { fixtureOptions } from "../../test/conformance/fixture.ts";

interface Env {
  MCP_OBJECT: DurableObjectNamespace;
}

const mcp = defineMcpWorker<Env>({
  // Built once per object; `stores.tasks` keeps tasks in the object's storage.
  handler: (_env, stores) => fixtureOptions(undefined, undefined, { store: stores.tasks }),
});

// The class named in wrangler.jsonc (`class_name`) must be exported by that name.
export const McpObject = mcp.McpObject;

export default {
  fetch(request: Request, env: Env): Promise<Response> | Response {
    if (new URL(request.url).pathname !== "/mcp") return new Response("Not found", { status: 404 });
    return mcp.fetch(request, env);
  },
};
