/** GET /: the playground's page, with the MCP URL of the host the browser reached. */
import { defineEventHandler, getRequestURL, setResponseHeader } from "h3";
import { renderPage } from "../activity/page";

export default defineEventHandler((event) => {
  const mcpUrl = new URL("/mcp", getRequestURL(event).origin).href;
  setResponseHeader(event, "content-type", "text/html; charset=utf-8");
  // The page loads only its own script and style; nothing inline runs.
  setResponseHeader(event, "content-security-policy", "default-src 'self'; connect-src 'self'");
  return renderPage(mcpUrl);
});
