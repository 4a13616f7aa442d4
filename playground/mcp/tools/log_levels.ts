/** One `notifications/message` per level; the client's `logging/setLevel` filters them. */
import type { LogLevel } from "mcp-h3";

export default defineMcpTool({
  description: "Logs one line at each level from debug to error; set a level first to see the filter work.",
  handler: async (event) => {
    const mcp = event.context.mcp;
    const levels: LogLevel[] = ["debug", "info", "notice", "warning", "error"];
    for (const level of levels) await mcp.log(level, `a ${level} line`, "playground");
    return `Logged ${levels.length} lines (threshold: ${mcp.logLevel ?? "none set, so all are sent"}).`;
  },
});
