/**
 * An MRTR round: the requests made together are gathered over microtask ticks (no timer), and the
 * round then needs the client; its end rejects the waits with the control signal, so an abandoned
 * handler's `finally` runs.
 */
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
    // Too late for the round's result: not listed in it.
    expect(round.requests).toEqual({});
  });

  it("answers from the client's responses without waiting", async () => {
    const round = new InputRound({ a: { action: "accept" } });
    await expect(round.request(context, "a", "elicitation/create", {})).resolves.toEqual({ action: "accept" });
  });

  it("needs the client once its turn is over, before any timer or other macrotask", async () => {
    const order: string[] = [];
    setTimeout(() => order.push("timer"), 0);
    setImmediate(() => order.push("immediate"));
    const round = new InputRound(undefined);
    round.whenNeeded(() => order.push(`needed ${Object.keys(round.requests).join(",")}`));
    void round.request(context, "a", "elicitation/create", {}).catch(() => {});
    void round.request(context, "b", "elicitation/create", {}).catch(() => {});
    expect(order).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order[0]).toBe("needed a,b");
    expect(order).toHaveLength(3);
  });

  it("gathers requests a few settled awaits apart; one made after a macrotask is not in the round", async () => {
    const round = new InputRound(undefined);
    const needed: string[][] = [];
    round.whenNeeded(() => needed.push(Object.keys(round.requests)));
    const ask = (key: string) => void round.request(context, key, "elicitation/create", {}).catch(() => {});
    ask("a");
    void (async () => {
      for (let i = 0; i < 10; i++) await null;
      ask("b");
      for (let i = 0; i < 10; i++) await Promise.resolve();
      ask("c");
    })();
    setTimeout(() => ask("late"), 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(needed).toEqual([["a", "b", "c"]]);
  });

  it("calls a listener given once the round already needs the client at once", async () => {
    const round = new InputRound(undefined);
    void round.request(context, "a", "roots/list", {}).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 5));
    let called = 0;
    round.whenNeeded(() => called++);
    expect(called).toBe(1);
  });
});
