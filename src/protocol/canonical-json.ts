/** One spelling per JSON value, for digests and for finding equal values by hashing. */
import type { JsonObject } from "./jsonrpc.ts";

/** Text emitted as it is by {@link canonicalJson}; no parsed value is ever an instance. */
class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
const OPEN_ARRAY = new Raw("[");
const CLOSE_ARRAY = new Raw("]");
const OPEN_OBJECT = new Raw("{");
const CLOSE_OBJECT = new Raw("}");
const COMMA = new Raw(",");

/**
 * JSON with object keys sorted, so that values equal as JSON (keys in any order, `1` and `1.0`) get
 * the same text and different values different texts. Iterative (an explicit stack of what is left to
 * write), so no nesting can overflow the call stack; linear in the size of the value (plus sorting keys).
 *
 * @example
 * canonicalJson({ b: [1.0], a: null }); // '{"a":null,"b":[1]}'
 */
export function canonicalJson(value: unknown): string {
  let out = "";
  const todo: unknown[] = [value];
  while (todo.length > 0) {
    const next = todo.pop();
    if (next instanceof Raw) {
      out += next.text;
    } else if (Array.isArray(next)) {
      todo.push(CLOSE_ARRAY);
      for (let i = next.length - 1; i >= 0; i--) {
        todo.push(next[i]);
        if (i > 0) todo.push(COMMA);
      }
      todo.push(OPEN_ARRAY);
    } else if (next !== null && typeof next === "object") {
      const keys = Object.keys(next).sort();
      todo.push(CLOSE_OBJECT);
      for (let i = keys.length - 1; i >= 0; i--) {
        todo.push((next as JsonObject)[keys[i]!], new Raw(`${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:`));
      }
      todo.push(OPEN_OBJECT);
    } else {
      out += JSON.stringify(next) ?? "null";
    }
  }
  return out;
}
