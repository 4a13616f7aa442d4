// Deno: `deno serve` takes the module's default export, the `{ fetch }` object.
import { defineMcpFetchHandler } from "mcp-h3";
import { tools } from "../catalog.ts";

export default defineMcpFetchHandler({ name: "example-deno", version: "1.0.0", tools });
