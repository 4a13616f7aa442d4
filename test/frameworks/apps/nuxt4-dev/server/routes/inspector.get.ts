// The docs' inspector route (docs/guide/inspector.md, Nitro and Nuxt), as a user writes it.
import { defineMcpInspector } from "mcp-h3/inspector";

export default defineMcpInspector({
  endpoint: "/mcp",
  enabled: process.env.NODE_ENV === "production" ? false : "loopback",
});
