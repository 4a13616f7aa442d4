// MCP on /mcp: the request goes to the Durable Object with the Worker's env (event.context.cloudflare).
import { mcp, type Env } from "../mcp.ts";

export default defineEventHandler((event) => mcp.fetch(toWebRequest(event), event.context.cloudflare.env as Env));
