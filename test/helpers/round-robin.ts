/**
 * A load balancer for tests: a real HTTP server that forwards each request to the next of several
 * MCP endpoints in turn, as a balancer without sticky sessions does, and streams the answer back.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export interface RoundRobin {
  /** The balancer's MCP endpoint. */
  url: string;
  /** Which backend (its index) served each request, in order. */
  readonly served: readonly number[];
  close(): Promise<void>;
}

/** Forwards one request to `target` and streams its answer back. */
export async function forward(target: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string" && name !== "host" && name !== "connection") headers.set(name, value);
  }
  const upstream = await fetch(target, {
    method: request.method,
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
  response.writeHead(upstream.status, Object.fromEntries(upstream.headers));
  if (!upstream.body) return void response.end();
  const body = Readable.fromWeb(upstream.body as never);
  // A backend that closes mid-stream (a test ending, an instance going away) ends this answer too.
  body.once("error", () => response.destroy());
  response.once("close", () => body.destroy());
  body.pipe(response);
}

/** Starts a balancer on a random loopback port in front of `backends` (MCP endpoint URLs). */
export async function startRoundRobin(backends: readonly string[]): Promise<RoundRobin> {
  const served: number[] = [];
  let next = 0;
  const server = createServer((request, response) => {
    const index = next;
    next = (next + 1) % backends.length;
    served.push(index);
    forward(backends[index]!, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/mcp`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
