/** Reading a streamed body line by line (the JSON lines of a `DurableBus` subscription). */

const decoder = new TextDecoder();

/** The lines of a UTF-8 body, one per `next()` (without its `\n`); undefined at its end. */
export function lineReader(reader: ReadableStreamDefaultReader<Uint8Array>): { next(): Promise<string | undefined> } {
  let buffered = "";
  return {
    async next() {
      for (;;) {
        const newline = buffered.indexOf("\n");
        if (newline >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          return line;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffered += decoder.decode(value, { stream: true });
      }
    },
  };
}
