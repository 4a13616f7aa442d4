/** The end of an MRTR round: waits reject with the control signal, so an abandoned handler's `finally` runs. */
import { describe, expect, it } from "vitest";
import { InputRequiredSignal, InputRound } from "../../src/modern/mrtr/mrtr.ts";
import type { RequestContext } from "../../src/context/request-context.ts";

const context = { method: "tools/call" } as RequestContext;

describe("InputRound", () => {
  it("rejects every waiting request with one InputRequiredSignal when the round ends", async () => {
    const round = new InputRound(undefined);
    const first = round.request(context, "a", "elicitation/create", {});
    const second = round.request(context, "b", "roots/list", {});
    const signal = round.end();
    await expect(first).rejects.toBe(signal);
    await expect(second).rejects.toBe(signal);
    expect(signal).toBeInstanceOf(InputRequiredSignal);
    expect(round.requests).toEqual({
      a: { method: "elicitation/create", params: {} },
      b: { method: "roots/list" },
    });
  });

  it("rejects a request made after the round ended at once", async () => {
    const round = new InputRound(undefined);
    round.end();
    await expect(round.request(context, "late", "roots/list", {})).rejects.toBeInstanceOf(InputRequiredSignal);
  });

  it("answers from the client's responses without waiting", async () => {
    const round = new InputRound({ a: { action: "accept" } });
    await expect(round.request(context, "a", "elicitation/create", {})).resolves.toEqual({ action: "accept" });
  });
});
