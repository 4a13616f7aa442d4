/**
 * How long the JSON text of a parsed value is, counted without writing it: a bound on what is kept of
 * client data (a session's `clientInfo` and `capabilities`) is checked once, before anything is
 * stored, and a hostile value costs no more than the bound to measure (the count stops past it; no
 * string of the value's size is built, as `JSON.stringify` would).
 */

/**
 * The length in UTF-8 bytes of `JSON.stringify(value)` for a value `JSON.parse` made, or `max + 1`
 * as soon as it is known to be longer than `max`. An explicit stack, no recursion; linear, and
 * stopping after counting `max` bytes.
 *
 * @example
 * jsonByteLengthAtMost({ name: "é" }, 100); // 13, the bytes of '{"name":"é"}'
 * jsonByteLengthAtMost([1, 2, 3], 4); // 5 (past 4: longer than that)
 */
export function jsonByteLengthAtMost(value: unknown, max: number): number {
  let size = 0;
  const todo: unknown[] = [value];
  while (todo.length > 0) {
    const next = todo.pop();
    if (typeof next === "string") size += stringLength(next, max - size);
    else if (typeof next === "number") size += Number.isFinite(next) ? String(next).length : 4;
    else if (typeof next === "boolean") size += next ? 4 : 5;
    else if (next === null || typeof next !== "object") size += 4;
    else if (Array.isArray(next)) {
      // Brackets, and a comma between items.
      size += 2 + Math.max(0, next.length - 1);
      for (let i = next.length - 1; i >= 0 && size <= max; i--) todo.push(next[i]);
    } else {
      const keys = Object.keys(next);
      // Braces, a colon per key, and a comma between entries.
      size += 2 + keys.length + Math.max(0, keys.length - 1);
      for (let i = 0; i < keys.length && size <= max; i++) {
        const key = keys[i]!;
        size += stringLength(key, max - size);
        todo.push((next as Record<string, unknown>)[key]);
      }
    }
    if (size > max) return max + 1;
  }
  return size;
}

/** The UTF-8 length of a JSON string literal (quotes and escapes included), stopping past `max`. */
function stringLength(text: string, max: number): number {
  let size = 2;
  for (let i = 0; i < text.length && size <= max; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) size += code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
    else if (code === 0x22 || code === 0x5c) size += 2;
    else if (code < 0x80) size += 1;
    else if (code < 0x800) size += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      // A pair is one 4-byte character; a lone surrogate is written as a \u escape.
      if (low >= 0xdc00 && low <= 0xdfff) {
        size += 4;
        i++;
      } else size += 6;
    } else if (code >= 0xdc00 && code <= 0xdfff) size += 6;
    else size += 3;
  }
  return size;
}
