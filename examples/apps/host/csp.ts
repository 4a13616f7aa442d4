/** The sandbox's Content-Security-Policy, shared with the inspector page (mcp-h3/inspector), which hosts views too. */
export { parseViewCsp, viewCspHeader, type ViewCsp } from "../../../src/inspector/view-csp.ts";
