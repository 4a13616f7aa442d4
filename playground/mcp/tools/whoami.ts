/** Shows what `event.context.mcp` holds for this very call. */
import { getRequestHeader } from "h3";

export default defineMcpTool({
  title: "Who am I?",
  description: "Shows the request context the server sees for this call (era, protocol version, session, client).",
  annotations: { readOnlyHint: true },
  handler: (event) => {
    const mcp = event.context.mcp;
    // The event is Nitro's own h3 v1 event, so every h3 utility works on it.
    const userAgent = getRequestHeader(event, "user-agent");
    return [
      `era: ${mcp.era}`,
      `protocolVersion: ${mcp.protocolVersion}`,
      `sessionId: ${mcp.sessionId ?? "(none)"}`,
      `client: ${mcp.clientInfo?.name ?? "(unknown)"} ${mcp.clientInfo?.version ?? ""}`.trimEnd(),
      `requestId: ${String(mcp.requestId)}`,
      `logLevel: ${mcp.logLevel ?? "(not set)"}`,
      `userAgent: ${userAgent ?? "(none)"}`,
    ].join("\n");
  },
});
