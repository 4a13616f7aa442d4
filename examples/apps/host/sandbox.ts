/**
 * The sandbox proxy of the minimal host (browser code; bundled into sandbox.html): the one the
 * inspector page (mcp-h3/inspector) frames too, in inspector/sandbox-proxy.ts.
 */
import { startSandboxProxy } from "../../../inspector/sandbox-proxy.ts";

startSandboxProxy();
