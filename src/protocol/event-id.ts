/**
 * SSE event ids: the `<streamId>/<seq>` form the library's event stores give (memory and Redis
 * alike), read back from a client's `Last-Event-ID`, and what any id must be to go on an `id:` line.
 * A `Last-Event-ID` is client input: parsing it is bounded and linear, and an id that is not of this
 * form names no event (a store of your own may use another form; the library then only passes its
 * ids through).
 */
import { echoValue } from "./echo.ts";

/**
 * Longest event id parsed, in characters. The library's ids are far shorter (an 8-character
 * instance prefix, a counter, a slash and at most 16 digits): a longer one was not given by it.
 */
export const MAX_EVENT_ID_LENGTH = 256;

/** A sequence number as the stores write it: digits, no sign, no leading zero, at most 16 (the Redis clock in µs). */
const SEQUENCE = /^[1-9][0-9]{0,15}$/;

/** What breaks an SSE line: CR and LF end it, and a NUL makes clients ignore the `id:` field. */
const LINE_BREAK = /[\r\n\0]/;

/** The parts of an event id of the library's form. */
export interface EventIdParts {
  readonly streamId: string;
  /** The sequence number within the stream, from 1; a safe integer. */
  readonly seq: number;
  /** `seq` as written in the id (for a store that passes it on as text). */
  readonly digits: string;
}

/**
 * The id of event `seq` of `streamId`.
 *
 * @example
 * formatEventId("3f2a9c1b.4", 7); // "3f2a9c1b.4/7"
 */
export function formatEventId(streamId: string, seq: number | string): string {
  return `${streamId}/${seq}`;
}

/**
 * Reads an id of the `<streamId>/<seq>` form; undefined for anything else: longer than
 * {@link MAX_EVENT_ID_LENGTH}, no stream, a sequence that is not 1 to 2^53 - 1 written plainly
 * (`01`, `1e3`, `-1`, `0`, ` 1`), or a line break anywhere.
 *
 * @example
 * parseEventId("get/12"); // { streamId: "get", seq: 12, digits: "12" }
 * parseEventId("get/1e3"); // undefined
 */
export function parseEventId(id: string): EventIdParts | undefined {
  if (id.length > MAX_EVENT_ID_LENGTH) return undefined;
  const slash = id.lastIndexOf("/");
  if (slash <= 0) return undefined;
  const digits = id.slice(slash + 1);
  if (!SEQUENCE.test(digits)) return undefined;
  const seq = Number(digits);
  if (!Number.isSafeInteger(seq)) return undefined;
  const streamId = id.slice(0, slash);
  if (LINE_BREAK.test(streamId)) return undefined;
  return { streamId, seq, digits };
}

/**
 * True when `id` can be written on an SSE `id:` line as it is: no CR, LF or NUL. An id with a line
 * break would end the line and write fields of its own (`event:`, `data:`) into the client's stream.
 */
export function isFrameableEventId(id: string): boolean {
  return !LINE_BREAK.test(id);
}

/**
 * Why an event store's id is refused (see {@link isFrameableEventId}): the store is treated as a
 * failing one. The id is quoted short and escaped, so the report carries no line break either.
 */
export function unframeableEventId(id: string): Error {
  return new Error(`The event store gave an event id with a line break (${echoValue(id)}): refused`);
}
