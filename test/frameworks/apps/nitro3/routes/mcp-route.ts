// The same handler as a route file: nitro 3 serves a route's default export on the file's path.
export { default } from "../mcp-handler.ts";
