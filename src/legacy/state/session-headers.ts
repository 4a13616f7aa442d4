/** The header every answer of a legacy session carries, in one place. */

/**
 * The headers naming a session on its answers (`initialize`, POST answers, GET and resumed streams).
 *
 * @example
 * jsonReply(200, response, sessionHeaders(session.id)); // Mcp-Session-Id: <id>
 */
export function sessionHeaders(sessionId: string): Readonly<Record<string, string>> {
  return { "mcp-session-id": sessionId };
}
