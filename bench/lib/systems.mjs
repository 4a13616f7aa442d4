/** The systems under test, in the order they are interleaved. */
export const SYSTEMS = ["bare-h3", "mcp-h3", "sdk-v2", "tmcp", "mcp-handler"];

export async function loadSystem(name) {
  if (!SYSTEMS.includes(name)) throw new Error(`unknown system ${name}`);
  return import(new URL(`../systems/${name}.mjs`, import.meta.url).href);
}

export const URL_MCP = "http://localhost/mcp";
