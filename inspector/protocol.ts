/**
 * The protocol panel: the client's fetch wrapped so that every HTTP exchange is listed with its
 * JSON-RPC message(s), its `Mcp-*` request headers and the answer's status. Bounded to the last 500 rows.
 */
import { byId, el } from "./dom.ts";

const MAX_ROWS = 500;
let seq = 0;

function summary(body: unknown): string {
  if (typeof body !== "string") return "";
  try {
    const parsed: unknown = JSON.parse(body);
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages
      .map((message: { method?: string; id?: unknown; result?: unknown; error?: { code?: number } }) => {
        const id = message.id === undefined ? "" : ` #${String(message.id)}`;
        if (message.method) return `${message.method}${id}`;
        return message.error ? `error ${message.error.code}${id}` : `result${id}`;
      })
      .join(", ");
  } catch {
    return "(not JSON)";
  }
}

/** A fetch that records each exchange in the panel, then fetches; `onAnswer` sees each response. */
export function recordingFetch(onAnswer?: (response: Response) => void): typeof fetch {
  const rows = byId<HTMLTableSectionElement>("protocol-rows");
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const mcpHeaders = [...headers].filter(([name]) => name.startsWith("mcp-")).map(([n, v]) => `${n}: ${v}`);
    const status = el("td", { className: "status" }, "…");
    const row = el(
      "tr",
      { "data-seq": ++seq },
      el("td", {}, String(seq)),
      el("td", {}, (init?.method ?? "GET").toUpperCase()),
      el("td", { className: "rpc" }, summary(init?.body)),
      el("td", { className: "headers" }, el("code", {}, mcpHeaders.join("\n"))),
      status,
    );
    rows.prepend(row);
    while (rows.rows.length > MAX_ROWS) rows.lastElementChild?.remove();
    try {
      const response = await fetch(input, init);
      const type = response.headers.get("content-type")?.split(";")[0] ?? "";
      const session = response.headers.get("mcp-session-id");
      status.textContent = `${response.status} ${type}${session ? ` (session ${session.slice(0, 8)})` : ""}`;
      onAnswer?.(response);
      return response;
    } catch (error) {
      status.textContent = `failed: ${String(error)}`;
      throw error;
    }
  };
}
