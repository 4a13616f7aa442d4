/**
 * A modern multi round-trip call across instances: behind a balancer that sends each request to
 * the next instance (no sticky sessions), round one is answered by instance A and the retry
 * reaches instance B. With one shared `requestState.secret` B accepts A's state; with a random key
 * per instance it refuses it; a rotated list opens states sealed with any of its secrets. Each
 * case runs with the real 2.x client, on h3 v2 and h3 v1 instances.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineMcpHandler, defineTool, type McpHandlerOptions } from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { MODERN_MODES, connectModern, type ModernConnection } from "./helpers/modern-clients.ts";
import { jsonOf } from "./helpers/results.ts";
import { startRoundRobin, type RoundRobin } from "./helpers/round-robin.ts";

const CALL_TIMEOUT_MS = 5_000;
const SECRET_1 = "first shared secret, at least 32 bytes long";
const SECRET_2 = "second shared secret, at least 32 bytes long";
const STATE_MARKER = "state-kept-by-instance-A";

function instance(requestState: McpHandlerOptions["requestState"]) {
  return defineMcpHandler({
    name: "instance",
    version: "1.0.0",
    requestState,
    tools: [
      defineTool({
        name: "ask",
        description: "Asks the user for a name",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          // Kept by round one on A, opened on B from the requestState the client carried.
          mcp.state ??= { marker: STATE_MARKER };
          const answer = await mcp.elicit("who", "Who are you?", z.object({ name: z.string() }));
          return JSON.stringify({ ...answer, kept: (mcp.state as { marker?: string }).marker });
        },
      }),
    ],
  });
}

const modern = MODERN_MODES.find((mode) => mode.name === "pinned") ?? MODERN_MODES[0]!;

describe.each(HOSTS)("requestState across two %s instances", (host) => {
  const running: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of running.splice(0).reverse()) await item.close();
  });

  /** Two instances behind a round-robin balancer, and a modern client connected through it. */
  async function balanced(
    secretA: McpHandlerOptions["requestState"],
    secretB: McpHandlerOptions["requestState"],
  ): Promise<{ balancer: RoundRobin; connection: ModernConnection }> {
    const a: RunningHost = await startHost(host, instance(secretA));
    const b: RunningHost = await startHost(host, instance(secretB));
    const balancer = await startRoundRobin([a.url, b.url]);
    running.push(a, b, balancer);
    const connection = await connectModern(balancer.url, modern, {
      onElicit: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    running.push(connection);
    return { balancer, connection };
  }

  /** Calls `ask` with round one on instance A and the retry on instance B. */
  async function askAcross(balancer: RoundRobin, connection: ModernConnection) {
    // The balancer's next request goes to A: line the call up so its first round lands there.
    if (balancer.served.length % 2 === 1) await connection.client.listTools();
    const before = balancer.served.length;
    const outcome = await connection.client
      .callTool({ name: "ask", arguments: {} }, { timeout: CALL_TIMEOUT_MS })
      .then(jsonOf, (error: Error) => error.message);
    return { outcome, rounds: balancer.served.slice(before, before + 2) };
  }

  it("one shared secret: the retry on B completes the call A began", async () => {
    const { balancer, connection } = await balanced({ secret: SECRET_1 }, { secret: SECRET_1 });
    const { outcome, rounds } = await askAcross(balancer, connection);
    expect(rounds).toEqual([0, 1]);
    expect(outcome).toEqual({ action: "accept", content: { name: "Ada" }, kept: STATE_MARKER });
    // The state crossed from A to B through the client, sealed: its requestState hides the marker.
    const [first] = await Promise.all(connection.requests("tools/call").map((exchange) => exchange.response));
    const state = (first as { result: { requestState: string } }).result.requestState;
    for (const part of [state, ...state.split(".")]) {
      expect(Buffer.from(part, "base64url").toString("latin1")).not.toContain(STATE_MARKER);
    }
  });

  it("a rotated list on B (new secret first) still opens what A sealed with the old one", async () => {
    const { balancer, connection } = await balanced({ secret: SECRET_1 }, { secret: [SECRET_2, SECRET_1] });
    const { outcome, rounds } = await askAcross(balancer, connection);
    expect(rounds).toEqual([0, 1]);
    expect(outcome).toEqual({ action: "accept", content: { name: "Ada" }, kept: STATE_MARKER });
  });

  it("different secrets: B refuses A's state as invalid", async () => {
    const { balancer, connection } = await balanced({ secret: SECRET_2 }, { secret: SECRET_1 });
    const { outcome, rounds } = await askAcross(balancer, connection);
    expect(rounds).toEqual([0, 1]);
    expect(outcome).toMatch(/Invalid or expired requestState/);
  });

  it("no secret: each instance draws its own key, so B refuses A's state", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const { balancer, connection } = await balanced(undefined, undefined);
      const { outcome, rounds } = await askAcross(balancer, connection);
      expect(rounds).toEqual([0, 1]);
      expect(outcome).toMatch(/Invalid or expired requestState/);
    } finally {
      warn.mockRestore();
    }
  });
});
