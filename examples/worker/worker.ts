// A plain Cloudflare Worker: the module's default export is the `{ fetch }` object.
import { defineMcpFetchHandler } from "mcp-h3";
import { tools } from "../catalog.ts";

export default defineMcpFetchHandler({ name: "example-worker", version: "1.0.0", tools });
