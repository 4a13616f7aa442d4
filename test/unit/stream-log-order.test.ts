/**
 * The order a GET stream's log gives the events other instances hand it: the next event in the log
 * is written as it comes (no read of the log), one written already is skipped, one past a gap
 * brings the missed events from the log first — and when the log cannot be read then, the answer
 * is "unreadable" (the channel closes the connection), never a silent skip past the missed events.
 */
import { describe, expect, it } from "vitest";
import { Incidents } from "../../src/http/incidents.ts";
import { OrderedStreamLog } from "../../src/legacy/resume/stream-log.ts";
import { StreamRetention } from "../../src/legacy/resume/stream-retention.ts";
import type { SessionData } from "../../src/types/stores.ts";
import { FailingEventStore, Faults } from "../helpers/failing-stores.ts";

const SESSION: SessionData = {
  id: "s1",
  protocolVersion: "2025-11-25",
  clientCapabilities: {},

  initialized: true,
  createdAt: 0,
};

function notice(text: string) {
  return { jsonrpc: "2.0" as const, method: "notifications/message", params: { level: "info", data: text } };
}

/** A GET stream's log on an event store that fails when told; `append` keeps an event as another instance does. */
function getLog() {
  const faults = new Faults();
  const events = new FailingEventStore(faults);
  const failures: unknown[] = [];
  const source = {
    events,
    retention: new StreamRetention({ replayWindowMs: 1000, maxStreamsPerSession: 10, drop: () => {} }),
    retryMs: 500,
    incidents: new Incidents((_, error) => void failures.push(error)),
    nextStreamId: () => "never",
  };
  const log = new OrderedStreamLog(source, SESSION, "get");
  const append = (text: string) => events.inner.append(SESSION.id, "get", notice(text));
  return { log, faults, failures, append, events };
}

describe("OrderedStreamLog.order", () => {
  it("writes the log's next event as it comes, without reading the log, and skips one written already", async () => {
    const { log, faults, append } = getLog();
    log.written(await log.append(null));
    faults.fail("reject", "events.replayAfter");
    const one = await append("one");
    const two = await append("two");
    expect(await log.order(one)).toEqual([]);
    expect(await log.order(two)).toEqual([]);
    expect(await log.order(one)).toBe("written");
    expect(faults.failed).toEqual([]);
  });

  it("brings the events it missed from the log first, in order", async () => {
    const { log, append } = getLog();
    log.written(await log.append(null));
    await append("one");
    await append("two");
    const three = await append("three");
    const earlier = await log.order(three);
    if (typeof earlier === "string") throw new Error(`expected the missed events, got "${earlier}"`);
    expect(earlier.map((event) => event.message)).toEqual([notice("one"), notice("two")]);
  });

  it('answers "unreadable" when the missed events carry an id with a line break, and says why', async () => {
    const { log, failures, append, events } = getLog();
    log.written(await log.append(null));
    await append("one");
    const two = await append("two");
    // A store of your own whose replay gives ids that would write fields into the SSE stream.
    const replayAfter = events.inner.replayAfter.bind(events.inner);
    events.inner.replayAfter = async (sessionId, lastEventId) => {
      const found = await replayAfter(sessionId, lastEventId);
      return found && { ...found, events: found.events.map((event) => ({ ...event, id: `${event.id}\ndata: x` })) };
    };
    expect(await log.order(two)).toBe("unreadable");
    expect(String(failures[0])).toMatch(/line break/);
    expect(await log.missed()).toEqual([]);
  });

  it('answers "unreadable" when the missed events cannot be read, and counts the failure', async () => {
    const { log, faults, failures, append } = getLog();
    log.written(await log.append(null));
    await append("one");
    const two = await append("two");
    faults.fail("reject", "events.replayAfter");
    expect(await log.order(two)).toBe("unreadable");
    expect(failures).toHaveLength(1);
    // The channel closed its connection: the event is past, and the client's resumption replays it.
    faults.heal();
    expect(await log.order(two)).toBe("written");
    expect(await log.order(await append("three"))).toEqual([]);
  });

  it("writes past events the log no longer has (trimmed): nothing would bring them back", async () => {
    const { log, append } = getLog();
    log.written(await log.append(null));
    // The memory store keeps 1,000 events per stream: the first ones after the priming event go.
    for (let i = 0; i < 1001; i++) await append(`n${i}`);
    const last = await append("last");
    expect(await log.order(last)).toEqual([]);
  });
});
