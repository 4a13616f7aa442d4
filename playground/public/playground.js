// The playground page's behaviour: copy buttons, and the live activity table fed by /activity (SSE).
const MAX_ROWS = 100;

for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", async () => {
    const text = document.getElementById(button.dataset.copy).textContent;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      // No clipboard (an insecure origin, a denied permission): select the text so Ctrl+C copies it.
      const range = document.createRange();
      range.selectNodeContents(document.getElementById(button.dataset.copy));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = "Selected";
    }
    setTimeout(() => (button.textContent = "Copy"), 1500);
  });
}

const rows = document.getElementById("activity-rows");
const state = document.getElementById("activity-state");
let lastSeq = 0;

/** One table row; every value is set as text, never as HTML (names come from clients). */
function row(entry) {
  const tr = document.createElement("tr");
  tr.dataset.seq = entry.seq;
  tr.className = `status-${entry.status}`;
  const cells = [
    new Date(entry.at).toLocaleTimeString(),
    entry.era,
    entry.method,
    entry.name ?? "",
    `${entry.durationMs} ms`,
    entry.sessionId ? entry.sessionId.slice(0, 8) : "—",
    entry.errorCode === null ? entry.status : `${entry.status} (${entry.errorCode})`,
  ];
  for (const [index, text] of cells.entries()) {
    const td = document.createElement("td");
    td.textContent = text;
    if (index === 5 && entry.sessionId) td.title = entry.sessionId;
    tr.append(td);
  }
  return tr;
}

const source = new EventSource("/activity");
source.addEventListener("open", () => (state.textContent = "Live: new requests appear as they finish."));
source.addEventListener("error", () => (state.textContent = "Disconnected; reconnecting…"));
source.addEventListener("message", (message) => {
  const entry = JSON.parse(message.data);
  // After a reconnect the server sends its whole ring again: keep only what is new.
  if (entry.seq <= lastSeq) return;
  lastSeq = entry.seq;
  rows.prepend(row(entry));
  while (rows.rows.length > MAX_ROWS) rows.lastElementChild.remove();
});
