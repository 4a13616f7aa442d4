/**
 * examples/bun on Bun (the bun binary from the lockfile): both eras' sequences with the real clients,
 * and a legacy GET stream that stays open past Bun's 10 s idle cut thanks to the keep-alive default
 * (8 s), then still delivers a notification. Real time, about 12 s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openGetStream } from "../helpers/live-sse.ts";
import { initializeByHand, post } from "../helpers/rpc.ts";
import { describeEraSequences } from "../helpers/era-sequences.ts";
import { EXAMPLE_TOOLS } from "./example-tools.ts";
import { BIN, startExample, type RunningExample } from "./runtime-process.ts";

/** Longer than Bun's default idleTimeout (10 s), which closes a connection that sends nothing. */
const PAST_IDLE_CUT_MS = 12_000;

describe("examples/bun on Bun", () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample(() => ({ file: BIN("bun"), args: ["examples/bun/server.ts"] }));
  });
  afterAll(() => example?.close());

  describeEraSequences(() => example.url, EXAMPLE_TOOLS);

  it(
    "keeps an idle legacy GET stream open past the 10 s idle cut, and it still delivers",
    async () => {
      const sessionId = await initializeByHand(example.url);
      const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
      expect((await post(example.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(
        202,
      );
      const { response, sse } = await openGetStream(example.url, headers);
      try {
        expect(response.status).toBe(200);
        expect(await sse.endedWithin(PAST_IDLE_CUT_MS)).toBe(false);
        const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "announce", arguments: {} } };
        expect((await post(example.url, call, headers)).status).toBe(200);
        const change = await sse.next(/notifications\/tools\/list_changed/);
        expect(JSON.parse(change.data)).toMatchObject({ method: "notifications/tools/list_changed" });
      } finally {
        sse.close();
      }
    },
    PAST_IDLE_CUT_MS + 15_000,
  );
});
