/**
 * GET /apps/sandbox: the sandbox proxy of the minimal host, which loads the view in an inner frame under the CSP
 * of its `_meta.ui.csp`. Served only on a loopback name, framed only by /apps/host on the other one, in an opaque
 * origin (examples/apps/host/serve.ts): a view never runs in the origin of /mcp.
 */
import { defineEventHandler, getRequestURL, setResponseHeaders, setResponseStatus } from "h3";
import { sandboxPage } from "../../../examples/apps/host/serve";
import sandboxHtml from "../../../examples/apps/host/dist/sandbox.html";

export default defineEventHandler((event) => {
  const page = sandboxPage(sandboxHtml, getRequestURL(event));
  if (!page) {
    setResponseStatus(event, 404);
    return "Not Found";
  }
  setResponseHeaders(event, page.headers);
  return page.html;
});
