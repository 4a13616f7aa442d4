/**
 * The type of `#inspector-page`, the module `scripts/build-inspector.mjs` writes to
 * `dist/inspector-page.mjs` (package.json `imports`): the page as one HTML document, its script and
 * style inline, with `__MCP_INSPECTOR_CONFIG__` where the handler puts its configuration, and the MCP App
 * sandbox proxy's page.
 */
declare const page: { html: string; scriptHash: string; styleHash: string; sandboxHtml: string };
export default page;
