/** The inspector's sandbox proxy page (sandbox.html), which src/inspector/serve.ts answers `?mcp-app-sandbox` with. */
import { startSandboxProxy } from "./sandbox-proxy.ts";

startSandboxProxy();
