/**
 * Hostile: header values. CR/LF smuggled through a base64 sentinel never reaches a response header
 * and is quoted escaped; oversize values are refused with a short message (client values are quoted
 * at most briefly, never whole); a header past the host's size limit is the host's 431; duplicated
 * standard headers do not pass as one.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTS } from "../helpers/hosts.ts";
import {
  LEGACY,
  expectPing,
  expectRefused,
  expectStillServes,
  legacy,
  modern,
  modernHeaders,
  openSession,
  postLegacy,
  postModern,
  sentinel,
  startHostile,
  type HostileServer,
  type Session,
} from "../helpers/hostile.ts";
import { guardProcess } from "../helpers/process-guard.ts";
import type { Answer } from "../helpers/rpc.ts";

guardProcess();

/** The error message quotes client values briefly: a generous bound on the whole body. */
const SHORT = 1000;

function expectNoInjection(answer: Answer): void {
  expect(answer.headers.get("x-injected")).toBeNull();
  const message = (answer.json as { error?: { message?: string } } | undefined)?.error?.message ?? "";
  expect(message).not.toMatch(/[\r\n]/);
}

/** A raw request with header lines as given (repeats allowed). */
function rawHeaders(
  url: string,
  lines: [string, string | string[]][],
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST" }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    for (const [name, value] of lines) request.setHeader(name, value);
    request.on("error", reject);
    request.end(body);
  });
}

describe.each(HOSTS)("hostile header values on %s", (host) => {
  let server: HostileServer;
  let victim: Session;

  beforeAll(async () => {
    server = await startHostile(host);
    victim = await openSession(server.url);
  });

  afterAll(async () => {
    await server.close();
  });

  it("CR/LF in a tool name sent as a sentinel: an unknown tool, quoted escaped, no header injected", async () => {
    const name = "record\r\nX-Injected: 1";
    const answer = await postModern(server.url, modern("tools/call", { name, arguments: { n: 1 } }));
    const error = expectRefused(answer, 200, -32602);
    expect(error.message.length).toBeLessThan(SHORT);
    expectNoInjection(answer);
  });

  it("CR/LF in an Mcp-Name sentinel that differs from the body: 400 -32020, escaped, nothing runs", async () => {
    const before = server.effects.length;
    const call = modern("tools/call", { name: "record", arguments: { n: 2 } });
    const answer = await postModern(server.url, call, { "mcp-name": sentinel("record\r\nX-Injected: 1") });
    expectRefused(answer, 400, -32020);
    expectNoInjection(answer);
    expect(server.effects.slice(before)).toEqual([]);
  });

  it("a 12 KB tool name (header = body) gets -32602 with a short message", async () => {
    const answer = await postModern(server.url, modern("tools/call", { name: "t".repeat(12_000), arguments: {} }));
    expectRefused(answer, 200, -32602);
    expect(answer.text.length).toBeLessThan(SHORT);
  });

  it("a 12 KB Mcp-Name that differs from the body gets 400 -32020 with a short message", async () => {
    const before = server.effects.length;
    const answer = await postModern(server.url, modern("tools/call", { name: "record", arguments: { n: 3 } }), {
      "mcp-name": "r".repeat(12_000),
    });
    expectRefused(answer, 400, -32020);
    expect(answer.text.length).toBeLessThan(SHORT);
    expect(server.effects.slice(before)).toEqual([]);
  });

  it("a 12 KB Mcp-Param-* value that differs from the body gets 400 -32020 with a short message", async () => {
    const call = modern("tools/call", { name: "regional", arguments: { region: "eu" } });
    const answer = await postModern(server.url, call, { "mcp-param-region": sentinel("é".repeat(5000)) });
    expectRefused(answer, 400, -32020);
    expect(answer.text.length).toBeLessThan(SHORT);
  });

  it("an 8 KB MCP-Protocol-Version on a legacy session gets 400 with a short message; the session lives", async () => {
    const answer = await postLegacy(server.url, victim, legacy("ping"), { "mcp-protocol-version": "1".repeat(8000) });
    expectRefused(answer, 400, -32000);
    expect(answer.text.length).toBeLessThan(SHORT);
    await expectPing(server.url, victim);
  });

  it("an 8 KB Mcp-Method gets 400 -32020 with a short message", async () => {
    const answer = await postModern(server.url, modern("server/discover"), { "mcp-method": "m".repeat(8000) });
    expectRefused(answer, 400, -32020);
    expect(answer.text.length).toBeLessThan(SHORT);
  });

  it("a header past the host's limit (64 KB) is refused by the host (431); the server serves on", async () => {
    const call = modern("tools/call", { name: "record", arguments: { n: 4 } });
    const lines = Object.entries(modernHeaders(call)) as [string, string][];
    lines.push(["mcp-name", "x".repeat(64 * 1024)]);
    const answer = await rawHeaders(server.url, lines, JSON.stringify(call)).catch(() => ({ status: 431, text: "" }));
    expect(answer.status).toBe(431);
    await expectStillServes(server.url, server);
    await expectPing(server.url, victim);
  });

  it("a repeated Mcp-Name or Mcp-Session-Id does not pass as one value", async () => {
    const before = server.effects.length;
    const call = modern("tools/call", { name: "record", arguments: { n: 5 } });
    const lines = (Object.entries(modernHeaders(call)) as [string, string | string[]][]).filter(
      ([name]) => name !== "mcp-name",
    );
    lines.push(["mcp-name", ["record", "record"]]);
    const answer = await rawHeaders(server.url, lines, JSON.stringify(call));
    expect(answer.status, answer.text).toBe(400);
    expect(JSON.parse(answer.text).error.code).toBe(-32020);
    expect(server.effects.slice(before)).toEqual([]);
    const other = await openSession(server.url);
    const ping = await rawHeaders(
      server.url,
      [
        ["content-type", "application/json"],
        ["accept", "application/json, text/event-stream"],
        ["mcp-protocol-version", LEGACY],
        ["mcp-session-id", [victim.id, other.id]],
      ],
      JSON.stringify(legacy("ping")),
    );
    expect(ping.status, ping.text).toBeGreaterThanOrEqual(400);
    expect(ping.status).toBeLessThan(500);
    await expectPing(server.url, victim);
    await expectPing(server.url, other);
  });

  it("500 unknown Mcp-Param-* headers on a call are ignored; the call is served", async () => {
    const call = modern("tools/call", { name: "record", arguments: { n: 6 } });
    const extra: Record<string, string> = {};
    for (let i = 0; i < 500; i++) extra[`mcp-param-x${i}`] = `v${i}`;
    const answer = await postModern(server.url, call, extra);
    expect(answer.status, answer.text).toBe(200);
    expect(server.effects.at(-1)).toBe("record:6");
  });
});
