// server/mcp/config.ts: the options that are code, merged over the mcp key of nuxt.config.ts
import { defineMcpConfig } from "mcp-h3/definitions";
import { tasks } from "mcp-h3/tasks";

export default defineMcpConfig({ extensions: [tasks()] });
