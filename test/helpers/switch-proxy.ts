/**
 * A proxy for tests that sends every request to one of several MCP endpoints, and can move to
 * another one, dropping every connection open through it — as a balancer does when it drains an
 * instance: a client's streams break, and it reconnects to the instance it is moved to.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { forward } from "./round-robin.ts";

export interface SwitchProxy {
  url: string;
  /** Sends the following requests to `backends[index]`, and drops every open answer. */
  switchTo(index: number): void;
  /** Sends the following requests to `backends[index]`, leaving open answers where they are. */
  routeTo(index: number): void;
  close(): Promise<void>;
}

export async function startSwitchProxy(backends: readonly string[]): Promise<SwitchProxy> {
  let target = 0;
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    open.add(response);
    response.once("close", () => open.delete(response));
    forward(backends[target]!, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/mcp`,
    switchTo(index) {
      target = index;
      for (const response of open) response.destroy();
    },
    routeTo(index) {
      target = index;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
