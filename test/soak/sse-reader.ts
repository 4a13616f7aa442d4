/**
 * The soak's SSE reading: events one at a time as they arrive, with their ids, until the body ends
 * or breaks. Resumption (`Last-Event-ID`) is the caller's, so the soak decides every reconnection.
 */

/** One event of a stream: its id (priming events have one and no data) and its data. */
export interface SoakEvent {
  id: string | undefined;
  data: string;
}

/** Longest event the soak accepts; a longer one means the stream is broken, not slow. */
const MAX_BUFFER = 1024 * 1024;

function parseBlock(block: string): SoakEvent | undefined {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "data") data.push(value);
  }
  return id === undefined && data.length === 0 ? undefined : { id, data: data.join("\n") };
}

/**
 * Reads `response`'s SSE body, calling `onEvent` for each event; `onEvent` returning true stops the
 * reading (the answer the caller waited for arrived). Resolves "done" when stopped that way, "ended"
 * when the server ended the body, "broken" when the connection failed.
 */
export async function readSse(
  response: Response,
  onEvent: (event: SoakEvent) => boolean,
): Promise<"done" | "ended" | "broken"> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return "ended";
      buffered += decoder.decode(value, { stream: true }).replaceAll("\r\n", "\n");
      if (buffered.length > MAX_BUFFER) return "broken";
      let cut: number;
      while ((cut = buffered.indexOf("\n\n")) !== -1) {
        const event = parseBlock(buffered.slice(0, cut));
        buffered = buffered.slice(cut + 2);
        if (event && onEvent(event)) return "done";
      }
    }
  } catch {
    return "broken";
  } finally {
    reader.cancel().catch(() => {});
  }
}
