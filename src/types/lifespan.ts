/**
 * What `defineMcpHandler({ setup })` returns, available to every handler as `mcp.lifespan`.
 * Empty until you augment it:
 *
 * @example
 * declare module "mcp-h3" {
 *   interface McpLifespan { db: Database }
 * }
 */
// oxlint-disable-next-line typescript/no-empty-interface -- filled by module augmentation
export interface McpLifespan {}
