/**
 * Hostile: the 413 of an oversize body reaches a client that is still writing. A client in another
 * process writes bodies one byte over `maxBodyBytes` and ten times over, declared or chunked (so
 * the limit is crossed mid-stream), slowly in pieces or in one write, and keeps writing whatever the
 * server answers: it reads status 413 and the JSON-RPC error in 20 of 20 runs per case. A client
 * sending far past the drain bound has its connection closed, without the server reading on: by
 * bytes (`maxBodyBytes` + 4 MiB) and by time (2 s after the answer).
 */
import { execFile } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler } from "../../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "../helpers/hosts.ts";
import { guardProcess } from "../helpers/process-guard.ts";

guardProcess();

const MAX_BODY = 1024;
const RUNS = 20;
const DRAIN_EXTRA_BYTES = 4 * 1024 * 1024;
const CLIENT = fileURLToPath(new URL("../helpers/oversize-client.mjs", import.meta.url));

interface Case {
  name: string;
  connection: "close" | "keep-alive";
  size: number;
  framing: "length" | "chunked";
  chunkBytes: number;
  delayMs: number;
}

const CASES: Case[] = [];
for (const connection of ["close", "keep-alive"] as const) {
  for (const framing of ["length", "chunked"] as const) {
    for (const [over, size] of [
      ["1 byte over", MAX_BODY + 1],
      ["10× over", 10 * MAX_BODY],
    ] as const) {
      const name = `${framing}, ${over}, Connection: ${connection}`;
      CASES.push({ name: `${name}, one write`, connection, size, framing, chunkBytes: 0, delayMs: 0 });
      CASES.push({ name: `${name}, slowly`, connection, size, framing, chunkBytes: 64, delayMs: 1 });
    }
  }
}

interface Flood {
  status: number;
  text: string;
  /** Body bytes the client's socket took before the connection ended. */
  written: number;
  /** How the connection ended: "closed" when the server closed it while the client was writing. */
  ended: string;
}

/**
 * POSTs (over a bare TCP socket, so no client logic stops the writes) a body declaring
 * `totalBytes`, in pieces of `chunkBytes` as fast as the socket takes them (or one piece every
 * `delayMs`), and goes on writing after the answer, until the server closes the connection.
 */
function flood(url: string, totalBytes: number, chunkBytes: number, delayMs = 0): Promise<Flood> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname === "localhost" ? "127.0.0.1" : hostname);
    const piece = Buffer.alloc(chunkBytes, 0x20);
    let written = 0;
    const received: Buffer[] = [];
    // A hang guard only: the server closes the connection long before.
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection was still open after ${written} bytes`));
    }, 20_000);
    socket.on("data", (data: Buffer) => received.push(data));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(guard);
      const answer = Buffer.concat(received).toString("utf8");
      const split = answer.indexOf("\r\n\r\n");
      const head = answer.slice(0, Math.max(0, split));
      const body = answer.slice(split + 4);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const text = /^transfer-encoding: chunked/im.test(head) ? unchunk(body) : body;
      resolve({ status, text, written, ended: written < totalBytes ? "closed" : "sent everything" });
    });
    socket.write(
      `POST ${pathname} HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${totalBytes}\r\n\r\n`,
    );
    const writeMore = (): void => {
      while (!socket.destroyed && written < totalBytes) {
        const ok = socket.write(piece);
        written += piece.length;
        if (delayMs > 0) {
          setTimeout(writeMore, delayMs);
          return;
        }
        if (!ok) {
          socket.once("drain", writeMore);
          return;
        }
      }
    };
    writeMore();
  });
}

/** The data of a chunked HTTP/1.1 body. */
function unchunk(body: string): string {
  let text = "";
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", at);
    const size = Number.parseInt(body.slice(at, lineEnd), 16);
    if (lineEnd === -1 || !(size > 0)) return text;
    text += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

function expect413(status: number, text: string): void {
  expect(status, text).toBe(413);
  const body = JSON.parse(text) as { error?: { code: number; message: string } };
  expect(body.error?.code).toBe(-32000);
  expect(body.error?.message).toContain(`maxBodyBytes (${MAX_BODY} bytes)`);
}

describe.each(HOSTS)("oversize bodies drained on %s", (host) => {
  let server: RunningHost;

  beforeAll(async () => {
    const handler = defineMcpHandler({ name: "drain", version: "1.0.0", tools: [], maxBodyBytes: MAX_BODY });
    server = await startHost(host, handler);
  });

  afterAll(() => server.close());

  for (const bodyCase of CASES) {
    it(`a client still writing reads the 413 in ${RUNS} of ${RUNS} runs: ${bodyCase.name}`, async () => {
      const { stdout } = await promisify(execFile)(process.execPath, [
        CLIENT,
        server.url,
        String(bodyCase.size),
        String(RUNS),
        bodyCase.framing,
        String(bodyCase.chunkBytes),
        String(bodyCase.delayMs),
        bodyCase.connection,
      ]);
      expect(JSON.parse(stdout)).toEqual({ "413": RUNS });
    });
  }

  it("a client sending far past the drain bound reads the 413, then its connection is closed", async () => {
    const gib = 1024 * 1024 * 1024;
    const answer = await flood(server.url, gib, 64 * 1024);
    expect413(answer.status, answer.text);
    expect(answer.ended).toBe("closed");
    // The server read at most maxBodyBytes + 4 MiB; the rest is what the sockets' buffers took.
    expect(answer.written).toBeLessThan(MAX_BODY + DRAIN_EXTRA_BYTES + 32 * 1024 * 1024);
  });

  it("a client trickling past the time bound reads the 413, then its connection is closed", async () => {
    // 1 KiB every 20 ms: far under the byte bound, and it would take 10 minutes to end.
    const answer = await flood(server.url, 30 * 1024 * 1024, 1024, 20);
    expect413(answer.status, answer.text);
    expect(answer.ended).toBe("closed");
  });
});
