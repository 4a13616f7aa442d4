/**
 * The numeric option a handler gives per request: an input request's `timeoutMs` (`elicit`,
 * `sample`, `listRoots`), given NaN, a string, 0, a negative, Infinity, a fraction and a valid
 * value (test/helpers/numeric-option-cases.ts). A value it cannot take fails the call naming the
 * option, rather than waiting no time at all (`setTimeout(NaN)`), over a real legacy session.
 */
import { describe, expect, it } from "vitest";
import { createMcpTestClient, textOf } from "../src/_entries/testing.ts";
import { defineMcpHandler, defineTool } from "../src/index.ts";
import { VALUES, accepts, refusal } from "./helpers/numeric-option-cases.ts";

const base = { name: "numbers", version: "1.0.0" };

describe("an input request's timeoutMs", () => {
  // Given in a handler, per request: the call fails naming it, rather than waiting NaN ms (no time at all).
  const handler = defineMcpHandler({
    ...base,
    tools: [
      defineTool({
        name: "ask",
        // The value by its index in CASES: JSON, which carries the arguments, has no NaN nor Infinity.
        input: { type: "object", properties: { index: { type: "number" } } },
        handler: async (event, { index }) => {
          const wait = CASES[Number(index)]!.value;
          const answer = await event.context.mcp.elicit(
            "name",
            "Your name?",
            { type: "string" },
            {
              timeoutMs: wait as number,
            },
          );
          return { content: [{ type: "text", text: `answered ${JSON.stringify(answer.content ?? null)}` }] };
        },
      }),
    ],
  });
  const CASES = [...VALUES, { label: "a valid value", value: 60_000 }];
  it.each(CASES.map((given, index) => ({ ...given, index })))("given $label", async ({ value, index }) => {
    // Answered after 20 ms: a wait that is no wait at all times out first.
    const elicitation = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { action: "accept" as const, content: { value: "Ada" } };
    };
    await using client = await createMcpTestClient(handler, { era: "legacy", elicitation });
    const text = await client
      .callTool({ name: "ask", arguments: { index } })
      .then(textOf, (error: Error) => error.message);
    if (accepts({}, value)) expect(text).toBe('answered "Ada"');
    else expect(text).toMatch(new RegExp(refusal("mcp-h3: elicitation/create: timeoutMs", value).source.slice(1, -1)));
  });
});
