/** Progress notifications and cancellation: the call upgrades to an SSE stream at the first progress. */
import { z } from "zod";

/** Waits `ms`, or rejects as soon as `signal` aborts, so a cancelled call stops at once. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export default defineMcpTool({
  description: "Counts from 1 to `to`, waiting `delayMs` between steps and reporting progress at each one.",
  input: z.object({
    to: z.number().int().min(1).max(1000).describe("Where to stop counting"),
    delayMs: z.number().int().min(0).max(10_000).optional().describe("Pause between two steps (default 200 ms)"),
  }),
  handler: async (event, { to, delayMs = 200 }) => {
    const mcp = event.context.mcp;
    for (let step = 1; step <= to; step++) {
      // `signal` aborts when the client cancels the call; sleeping on it stops the loop without delay.
      await sleep(delayMs, mcp.signal);
      await mcp.progress(step, to, `counted to ${step}`);
    }
    return `Counted to ${to}.`;
  },
});
