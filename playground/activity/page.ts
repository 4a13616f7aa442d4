/**
 * The HTML of the playground's page: how to connect (the MCP URL, the inspector page's address for each
 * era, a client configuration), the inspector page (/inspector) in a frame to try every tool from the browser, and
 * a table of live activity that public/playground.js fills from /activity.
 */

/** Escapes text for HTML element content and double-quoted attributes (the URL comes from the Host header). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A labelled, copy-ready block of text. */
function copyBlock(id: string, label: string, text: string): string {
  return `<div class="copy">
  <p class="label" id="${id}-label">${label}</p>
  <div class="row">
    <pre id="${id}" aria-labelledby="${id}-label" tabindex="0"><code>${escapeHtml(text)}</code></pre>
    <button type="button" data-copy="${id}" aria-label="Copy: ${label}">Copy</button>
  </div>
</div>`;
}

/**
 * The address of this playground's inspector page (mcp-h3/inspector at /inspector), connected in one era.
 * Nothing to install: the page is the official MCP client running in the browser.
 */
export function inspectorUrl(mcpUrl: string, era: "legacy" | "modern"): string {
  return new URL(`/inspector?era=${era}&connect=1`, mcpUrl).href;
}

/** The client configuration most MCP clients take (an `mcpServers` map of streamable HTTP servers). */
export function clientConfig(mcpUrl: string): string {
  return JSON.stringify({ mcpServers: { "mcp-h3-playground": { type: "http", url: mcpUrl } } }, null, 2);
}

/** The whole page for an endpoint at `mcpUrl`. */
export function renderPage(mcpUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-h3 playground</title>
<link rel="stylesheet" href="/playground.css">
<script type="module" src="/playground.js"></script>
</head>
<body>
<main>
<h1>mcp-h3 playground</h1>
<section aria-labelledby="connect">
<h2 id="connect">Connect</h2>
${copyBlock("mcp-url", "MCP endpoint (streamable HTTP, both protocol eras)", mcpUrl)}
${copyBlock("inspector-legacy", "Inspector page, legacy era (initialize and a session)", inspectorUrl(mcpUrl, "legacy"))}
${copyBlock("inspector-modern", "Inspector page, modern era (stateless 2026-07-28)", inspectorUrl(mcpUrl, "modern"))}
${copyBlock("client-config", "Client configuration (JSON)", clientConfig(mcpUrl))}
<p class="hint">Tools to try, below or in the inspector page (open it in a tab; nothing to install): <code>whoami</code>, <code>count_slowly</code> (progress, cancel), <code>log_levels</code>, <code>ask_name</code> (elicitation), <code>countdown</code> (a task: follow it, give its go, or cancel it), <code>show_weather</code> (an MCP App: its view shows under the result; also in a <a id="app-host-link" href="/apps/host?tool=show_weather&amp;args=%7B%22city%22%3A%22Lisbon%22%7D">minimal host</a>).</p>
</section>
<section aria-labelledby="try">
<h2 id="try">Try every tool in the browser</h2>
<p class="hint">The inspector below is mcp-h3's own (<code>mcp-h3/inspector</code>, also at <a href="/inspector">/inspector</a>): the official MCP client running in this page, in the era you pick. Its calls show in the live activity.</p>
<iframe id="inspector-frame" title="MCP inspector" src="/inspector?era=auto&amp;connect=1"></iframe>
</section>
<section aria-labelledby="activity">
<h2 id="activity">Live activity</h2>
<p id="activity-state" role="status" aria-live="polite">Connecting…</p>
<table>
<caption>The last 100 MCP requests, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Era</th><th scope="col">Method</th><th scope="col">Name</th><th scope="col">Duration</th><th scope="col">Session</th><th scope="col">Status</th></tr></thead>
<tbody id="activity-rows"></tbody>
</table>
</section>
</main>
</body>
</html>
`;
}
