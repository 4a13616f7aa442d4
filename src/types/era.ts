/** Which protocol era served the request. */
export type McpEra = "modern" | "legacy";
