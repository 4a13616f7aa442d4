/**
 * GET /apps/sandbox: the sandbox proxy of the minimal host, which loads the view in an inner frame. Its CSP
 * is built from the view's `_meta.ui.csp` (passed as `?csp=` by the host page), so the view runs under exactly
 * what it declared: with nothing declared, no network and no `eval`.
 */
import { defineEventHandler, getQuery, setResponseHeader } from "h3";
import { parseViewCsp, viewCspHeader } from "../../../examples/apps/host/csp";
import sandboxPage from "../../../examples/apps/host/dist/sandbox.html";

export default defineEventHandler((event) => {
  setResponseHeader(event, "content-type", "text/html; charset=utf-8");
  setResponseHeader(event, "content-security-policy", viewCspHeader(parseViewCsp(getQuery(event).csp)));
  return sandboxPage;
});
