/**
 * The request sequence both eras share (src/request/sequence.ts) answers every failure of a call
 * as its JSON-RPC error, whether the handler failed at once or after a turn: here a prompt handler
 * that throws a value that cannot even be turned into a message (`String()` of it throws), over
 * real HTTP on both eras and both h3 majors.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, definePrompt } from "../src/index.ts";
import { INTERNAL_ERROR } from "../src/protocol/errors.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { openRawSession, postInSession } from "./helpers/legacy-raw.ts";
import { POST_HEADERS, expectError, toAnswer } from "./helpers/rpc.ts";

/** A thrown value with no prototype: `String()` of it throws a TypeError. */
function unprintable(): object {
  return Object.create(null) as object;
}

const prompts = [
  definePrompt({
    name: "fails-at-once",
    handler: () => {
      throw unprintable();
    },
  }),
  definePrompt({
    name: "fails-later",
    handler: async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      throw unprintable();
    },
  }),
];

/** `prompts/get` of `name`. */
function getPrompt(id: number, name: string, params: Record<string, unknown> = {}): unknown {
  return { jsonrpc: "2.0", id, method: "prompts/get", params: { name, ...params } };
}

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** What the message of the error says: the TypeError that `String()` of the thrown value gave. */
const INTERNAL = /^Internal error: /;

describe.each(HOSTS)("the shared sequence on %s", (hostName) => {
  let host: RunningHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  for (const name of ["fails-at-once", "fails-later"]) {
    it(`legacy: ${name} is answered with -32603`, async () => {
      host = await startHost(hostName, defineMcpHandler({ name: "t", version: "1", prompts }));
      const session = await openRawSession(host.url);
      const answer = await toAnswer(await postInSession(host.url, session, getPrompt(7, name)));
      expectError(answer, 200, INTERNAL_ERROR, INTERNAL);
      expect(answer.headers.get("mcp-session-id")).toBe(session.id);
    });

    it(`modern: ${name} is answered with -32603`, async () => {
      host = await startHost(hostName, defineMcpHandler({ name: "t", version: "1", prompts }));
      const response = await fetch(host.url, {
        method: "POST",
        headers: {
          ...POST_HEADERS,
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "prompts/get",
          "mcp-name": name,
        },
        body: JSON.stringify(getPrompt(7, name, { _meta: MODERN_META })),
      });
      const answer = await toAnswer(response);
      expectError(answer, 200, INTERNAL_ERROR, INTERNAL);
    });
  }
});
