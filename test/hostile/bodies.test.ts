/**
 * Hostile: request bodies. A body over `maxBodyBytes` gets a 413 the client can read (no reset),
 * without the server buffering it (RSS stays flat for 100 MB, declared or chunked); a client that
 * drops mid-body is counted, not logged, and leaves no unhandled rejection; a body trickled slowly
 * holds up nobody else; bytes that are not UTF-8 or not JSON get a clear answer.
 */
import { collectGarbage } from "../helpers/gc.ts";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { HOSTS } from "../helpers/hosts.ts";
import {
  expectPing,
  expectRefused,
  expectStillServes,
  legacy,
  modern,
  modernHeaders,
  openSession,
  postLegacyText,
  postModern,
  startHostile,
  type HostileServer,
  type Session,
} from "../helpers/hostile.ts";
import { abortMidBody, rawPost, type RawAnswer } from "../helpers/raw-body.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import { POST_HEADERS, single } from "../helpers/rpc.ts";
import { sleep } from "../helpers/wait.ts";

guardProcess();

const MAX_BODY = 1024;
const HUNDRED_MB = 100 * 1024 * 1024;

function parsed(answer: RawAnswer): { id?: unknown; error?: { code: number; message: string } } {
  expect(String(answer.headers["content-type"])).toContain("application/json");
  return JSON.parse(answer.text) as { id?: unknown; error?: { code: number; message: string } };
}

function expect413(answer: RawAnswer, max: number): void {
  expect(answer.status, answer.text).toBe(413);
  const body = parsed(answer);
  expect(body.error?.code).toBe(-32000);
  expect(body.error?.message).toContain("maxBodyBytes");
  expect(body.error?.message).toContain(String(max));
}

async function waitFor(check: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await sleep(10);
  }
  return check();
}

describe.each(HOSTS)("hostile bodies on %s", (host) => {
  let server: HostileServer;
  let roomy: HostileServer;
  let victim: Session;

  beforeAll(async () => {
    server = await startHostile(host, { maxBodyBytes: MAX_BODY });
    roomy = await startHostile(host);
    victim = await openSession(server.url);
  });

  afterAll(async () => {
    await Promise.all([server.close(), roomy.close()]);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("a body one byte over maxBodyBytes with Content-Length: the client reads the 413", async () => {
    const message = JSON.stringify(legacy("tools/call", { name: "record", arguments: { n: 1 } }));
    const before = server.effects.length;
    const answer = await rawPost(server.url, {
      headers: { ...POST_HEADERS, ...victim.headers },
      totalBytes: MAX_BODY + 1 - message.length,
      contentLength: true,
      tail: message,
    });
    expect413(answer, MAX_BODY);
    expect(server.effects.slice(before)).toEqual([]);
    // Exactly at the limit is read and served.
    const atLimit = await rawPost(server.url, {
      headers: { ...POST_HEADERS, ...victim.headers },
      totalBytes: MAX_BODY - message.length,
      contentLength: true,
      tail: message,
    });
    expect(atLimit.status, atLimit.text).toBe(200);
    expect(server.effects.at(-1)).toBe("record:1");
    await expectPing(server.url, victim);
  });

  for (const contentLength of [true, false]) {
    it(`a 100 MB body ${contentLength ? "with" : "without"} Content-Length gets 413 unbuffered (RSS stays flat)`, async () => {
      const message = modern("tools/call", { name: "record", arguments: { n: 2 } });
      const before = server.effects.length;
      collectGarbage();
      const rssBefore = process.memoryUsage().rss;
      const answer = await rawPost(roomy.url, {
        headers: modernHeaders(message),
        totalBytes: HUNDRED_MB,
        contentLength,
        tail: JSON.stringify(message),
        timeoutMs: 60_000,
      });
      const rssGrowth = process.memoryUsage().rss - rssBefore;
      expect413(answer, 4 * 1024 * 1024);
      // The server stopped reading long before the end, and held no more than about maxBodyBytes.
      expect(answer.written).toBeLessThan(HUNDRED_MB);
      expect(rssGrowth, `RSS grew by ${Math.round(rssGrowth / 1048576)} MB`).toBeLessThan(48 * 1024 * 1024);
      expect(server.effects.slice(before)).toEqual([]);
      await expectStillServes(roomy.url, roomy);
    });
  }

  it("a client disconnecting mid-body is quiet: client_aborted +1, no console output, no rejection", async () => {
    const warn = vi.spyOn(console, "warn");
    const error = vi.spyOn(console, "error");
    const log = vi.spyOn(console, "log");
    const before = roomy.handler.incidents.client_aborted;
    const message = modern("tools/call", { name: "record", arguments: { n: 3 } });
    await abortMidBody(roomy.url, modernHeaders(message), 100_000, 1000);
    expect(await waitFor(() => roomy.handler.incidents.client_aborted === before + 1)).toBe(true);
    await sleep(50);
    expect(roomy.handler.incidents.client_aborted).toBe(before + 1);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    // The same on a legacy session's POST.
    const session = await openSession(roomy.url);
    await abortMidBody(roomy.url, { ...POST_HEADERS, ...session.headers }, 50_000, 10);
    expect(await waitFor(() => roomy.handler.incidents.client_aborted === before + 2)).toBe(true);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    await expectPing(roomy.url, session);
    await expectStillServes(roomy.url, roomy);
  });

  it("a body trickled slowly holds up nobody: other clients are served meanwhile, then it is answered", async () => {
    const message = modern("tools/call", { name: "record", arguments: { n: 4 } });
    let trickleDone = false;
    const trickle = rawPost(roomy.url, {
      headers: modernHeaders(message),
      totalBytes: 40,
      chunkBytes: 1,
      delayMs: 25,
      contentLength: false,
      tail: JSON.stringify(message),
    }).finally(() => (trickleDone = true));
    // Twenty other requests, on both eras, while the trickle is still being written.
    const session = await openSession(roomy.url);
    for (let i = 0; i < 10; i++) {
      const call = modern("tools/call", { name: "record", arguments: { n: 100 + i } });
      const answer = await postModern(roomy.url, call);
      expect(answer.status).toBe(200);
      await expectPing(roomy.url, session);
    }
    expect(trickleDone).toBe(false);
    const answer = await trickle;
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text).result.content).toEqual([{ type: "text", text: "recorded 4" }]);
  });

  it("invalid UTF-8 in a body gets a clear answer (never 5xx) and changes nothing", async () => {
    const session = await openSession(server.url);
    const before = server.effects.length;
    const message = JSON.stringify(legacy("logging/setLevel", { level: "XX" }));
    const bytes = Buffer.from(message);
    const at = bytes.indexOf("XX");
    bytes[at] = 0xc3;
    bytes[at + 1] = 0x28;
    const response = await fetch(server.url, {
      method: "POST",
      headers: { ...POST_HEADERS, ...session.headers },
      body: bytes,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    expect(response.status, text).toBeGreaterThanOrEqual(200);
    expect(response.status, text).toBeLessThan(500);
    const body = JSON.parse(text) as { error?: { code: number } };
    // Not a log level: refused (as invalid UTF-8, or as an unknown level), and the level stays unset.
    expect(body.error?.code === -32700 || body.error?.code === -32602).toBe(true);
    const stored = await server.handler.engine.services.sessions!.store.get(session.id);
    expect(stored?.logLevel).toBeUndefined();
    expect(server.effects.slice(before)).toEqual([]);
    await expectPing(server.url, session);
  });

  it("an empty body, a lone BOM, NUL bytes and a truncated message get 400 -32700; nothing runs", async () => {
    const session = await openSession(server.url);
    const before = server.effects.length;
    const full = JSON.stringify(legacy("tools/call", { name: "record", arguments: { n: 5 } }));
    for (const body of ["", "\uFEFF", "\u0000\u0000", full.slice(0, full.length - 2), full + "}"]) {
      const answer = await postLegacyText(server.url, session, body);
      expectRefused(answer, 400, -32700, /Parse error/);
      expect(single(answer).id).toBeNull();
    }
    expect(server.effects.slice(before)).toEqual([]);
    await expectPing(server.url, session);
    await expectPing(server.url, victim);
  });

  it("a Content-Length larger than the body sent, then a drop, is counted and changes nothing", async () => {
    const before = server.handler.incidents.client_aborted;
    const effects = server.effects.length;
    await abortMidBody(server.url, { ...POST_HEADERS, ...victim.headers }, 800, 799);
    expect(await waitFor(() => server.handler.incidents.client_aborted === before + 1)).toBe(true);
    expect(server.effects.slice(effects)).toEqual([]);
    await expectPing(server.url, victim);
  });
});
