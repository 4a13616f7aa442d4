/** The systems under test, in the order they run in the first repetition. */
export const SYSTEMS = ["bare-h3", "mcp-h3", "sdk-v2", "tmcp", "mcp-handler"];

/**
 * The order of the systems in repetition `rep` (0-based): rotated by one per repetition, so no
 * system always runs first (on a cold machine) or right after the same neighbour.
 */
export function rotation(systems, rep) {
  const shift = rep % systems.length;
  return [...systems.slice(shift), ...systems.slice(0, shift)];
}

/** Variants of mcp-h3 measured against it in the in-process modern scenario only (auth_vs_no_auth). */
export const MODERN_VARIANTS = ["mcp-h3-auth"];

/** Variants of mcp-h3 measured against it in the Redis scenario only (redis_legacy_vs_memory). */
export const REDIS_VARIANTS = ["mcp-h3-redis", "mcp-h3-redis-cluster"];

export async function loadSystem(name) {
  if (![...SYSTEMS, ...MODERN_VARIANTS, ...REDIS_VARIANTS].includes(name)) throw new Error(`unknown system ${name}`);
  return import(new URL(`../systems/${name}.mjs`, import.meta.url).href);
}

export const URL_MCP = "http://localhost/mcp";
