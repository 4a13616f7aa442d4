/** The event id format of the library's stores (`protocol/event-id.ts`), on hostile `Last-Event-ID` values. */
import { describe, expect, it } from "vitest";
import {
  MAX_EVENT_ID_LENGTH,
  formatEventId,
  isFrameableEventId,
  parseEventId,
  unframeableEventId,
} from "../../src/protocol/event-id.ts";

describe("parseEventId", () => {
  it("reads what formatEventId writes, the stream id being everything before the last slash", () => {
    expect(parseEventId(formatEventId("get", 12))).toEqual({ streamId: "get", seq: 12, digits: "12" });
    expect(parseEventId(formatEventId("3f2a9c1b.4", "1796140375555799"))).toEqual({
      streamId: "3f2a9c1b.4",
      seq: 1796140375555799,
      digits: "1796140375555799",
    });
    expect(parseEventId("a/b/7")).toEqual({ streamId: "a/b", seq: 7, digits: "7" });
  });

  it("refuses sequences not written plainly, and the unkept sequence 0", () => {
    for (const id of [
      "t/01",
      "t/1e3",
      "t/-1",
      "t/+1",
      "t/0",
      "t/",
      "t/ 1",
      "t/1 ",
      "t/1.0",
      "t/0x1",
      "t/１",
      "t/1\n",
    ]) {
      expect(parseEventId(id), id).toBeUndefined();
    }
  });

  it("refuses ids without a stream", () => {
    for (const id of ["", "/", "/1", "t", "1", "t1"]) expect(parseEventId(id), id).toBeUndefined();
  });

  it("refuses huge numbers: more than 16 digits, or past 2^53 - 1", () => {
    expect(parseEventId(`t/${Number.MAX_SAFE_INTEGER}`)?.seq).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseEventId(`t/${Number.MAX_SAFE_INTEGER + 1}`)).toBeUndefined();
    expect(parseEventId("t/9999999999999999")).toBeUndefined();
    expect(parseEventId("t/12345678901234567")).toBeUndefined();
    expect(parseEventId(`t/${"9".repeat(200)}`)).toBeUndefined();
  });

  it("refuses line breaks and NUL anywhere", () => {
    for (const id of ["t\n/1", "t\r/1", "t\r\n/1", "t\0/1", "\nevent: x/1", "t/1\r"]) {
      expect(parseEventId(id), JSON.stringify(id)).toBeUndefined();
    }
  });

  it("refuses an id longer than the bound without reading it", () => {
    const longest = `${"s".repeat(MAX_EVENT_ID_LENGTH - 2)}/1`;
    expect(parseEventId(longest)?.seq).toBe(1);
    expect(parseEventId(`s${longest}`)).toBeUndefined();
    // A megabyte of slashes or digits is refused at its length, not walked.
    expect(parseEventId("/".repeat(1 << 20))).toBeUndefined();
    expect(parseEventId(`t/${"1".repeat(1 << 20)}`)).toBeUndefined();
  });
});

describe("isFrameableEventId", () => {
  it("lets through what an SSE id line can carry and nothing that ends the line", () => {
    expect(isFrameableEventId("get/1")).toBe(true);
    expect(isFrameableEventId("any id: of a store of your own")).toBe(true);
    for (const id of ["a\nb", "a\rb", "a\r\nb", "a\0b", "\n"]) expect(isFrameableEventId(id)).toBe(false);
  });

  it("says why an id is refused, short and on one line", () => {
    const message = unframeableEventId(`t/1\nevent: injected\ndata: ${"x".repeat(1000)}`).message;
    expect(message).toMatch(/line break/);
    expect(message).not.toMatch(/[\r\n]/);
    expect(message.length).toBeLessThan(200);
  });
});
