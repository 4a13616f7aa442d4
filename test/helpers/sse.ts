/** Parsing a complete `text/event-stream` body into its events. */

/** One event: its `id:`, `event:` and joined `data:` lines. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** The events of an SSE body read to its end; comments (keep-alives) and events without id or data are left out. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    const event: SseEvent = { data: "" };
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") event.id = value;
      else if (field === "event") event.event = value;
      else if (field === "data") data.push(value);
    }
    event.data = data.join("\n");
    if (event.id !== undefined || event.data !== "") events.push(event);
  }
  return events;
}
