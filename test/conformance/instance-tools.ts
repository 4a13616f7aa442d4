/**
 * Fixture tools for running the fixture as several instances over one Redis (`REDIS_URL`): each
 * makes one cross-instance behaviour observable from outside, so the two-process test and the soak
 * can drive it with raw HTTP. They are added only when the fixture runs on shared stores, so the
 * pinned conformance runs see the same tool list as before.
 */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "mcp-h3";

/** Most labels of cancelled calls one process remembers (a bounded record; the oldest go first). */
const MAX_CANCELLED = 1_000;
/** The longest a waiting tool waits, so a forgotten call ends by itself. */
const MAX_WAIT_MS = 60_000;

const cancelled = new Set<string>();

function remember(label: string): void {
  cancelled.add(label);
  if (cancelled.size > MAX_CANCELLED) cancelled.delete(cancelled.values().next().value!);
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** The tools of a fixture instance; `instance` names the process in their answers. */
export function instanceTools(instance: string): ToolDefinition[] {
  return [
    defineTool({
      name: "test_instance_name",
      description: "Names the instance that answers",
      handler: () => instance,
    }),
    defineTool({
      name: "test_notify_session",
      description: "Sends a notifications/message carrying `text` to this session's GET stream, wherever it is held",
      input: z.object({ text: z.string().max(200) }),
      handler: async (event, { text }) => {
        const mcp = event.context.mcp!;
        if (mcp.sessionId === undefined) return "no session";
        const sent = await mcp.notifySession(mcp.sessionId, "notifications/message", {
          level: "info",
          logger: instance,
          data: text,
        });
        return sent ? "delivered" : "not delivered";
      },
    }),
    defineTool({
      name: "test_progress_steps",
      description: "Reports progress 1..steps of steps, `delayMs` apart, then answers with the count",
      input: z.object({ steps: z.number().int().min(1).max(1_000), delayMs: z.number().int().min(0).max(5_000) }),
      handler: async (event, { steps, delayMs }) => {
        const mcp = event.context.mcp!;
        for (let step = 1; step <= steps; step++) {
          if (step > 1 && delayMs > 0) await sleep(delayMs);
          await mcp.progress(step, steps, `step ${step}`);
        }
        return `steps ${steps} on ${instance}`;
      },
    }),
    defineTool({
      name: "test_wait_for_cancel",
      description: "Waits until the call is cancelled (or `ms` pass); remembers `label` when it was cancelled",
      input: z.object({ label: z.string().max(100), ms: z.number().int().min(0).max(MAX_WAIT_MS) }),
      handler: async (event, { label, ms }) => {
        const mcp = event.context.mcp!;
        await mcp.progress(0, 1, `waiting on ${instance}`);
        await sleep(ms, mcp.signal);
        if (mcp.signal.aborted) remember(label);
        return mcp.signal.aborted ? "cancelled" : "not cancelled";
      },
    }),
    defineTool({
      name: "test_was_cancelled",
      description: "Whether a test_wait_for_cancel call with `label` was cancelled on this instance",
      input: z.object({ label: z.string().max(100) }),
      handler: (_event, { label }) => (cancelled.has(label) ? "cancelled" : "not cancelled"),
    }),
  ];
}
