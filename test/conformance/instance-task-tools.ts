/**
 * Fixture tools that make a task's handler observable from outside, for the test of tasks across
 * fixture processes over one Redis (test/tasks-redis-processes.test.ts): which instance runs a task,
 * and whether its signal fired there. Added only when the fixture runs on shared stores, like
 * instanceTools, so the pinned conformance runs see the same tool list as before.
 */
import { z } from "zod";
import { defineTool, type ToolDefinition } from "mcp-h3";

/** Most task handlers whose abort one process remembers (a bounded record; the oldest go first). */
const MAX_REMEMBERED = 1_000;
/** The longest a held task holds, so a forgotten one ends by itself. */
const MAX_HOLD_MS = 60_000;

/** The tools of a fixture instance named `instance`. */
export function instanceTaskTools(instance: string): ToolDefinition[] {
  /** Task id → the reason its handler's signal fired with, on this instance. */
  const aborted = new Map<string, string>();
  const remember = (taskId: string, reason: unknown): void => {
    aborted.set(taskId, reason instanceof Error ? reason.message : String(reason));
    if (aborted.size > MAX_REMEMBERED) aborted.delete(aborted.keys().next().value!);
  };
  return [
    defineTool({
      name: "test_task_hold",
      description:
        "A task that holds until it is cancelled (at most a minute), its status message naming this instance",
      task: "required",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        const taskId = mcp.task?.id;
        await mcp.task?.setStatusMessage(`held on ${instance}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, MAX_HOLD_MS);
          mcp.signal.addEventListener(
            "abort",
            () => {
              clearTimeout(timer);
              resolve();
            },
            { once: true },
          );
        });
        if (!mcp.signal.aborted) return `held on ${instance} for a minute`;
        if (taskId !== undefined) remember(taskId, mcp.signal.reason);
        throw mcp.signal.reason;
      },
    }),
    defineTool({
      name: "test_task_aborted",
      description: "The reason the signal of task `taskId`'s handler fired with on this instance, or `not aborted`",
      input: z.object({ taskId: z.string().max(128) }),
      handler: (_event, { taskId }) => aborted.get(taskId) ?? "not aborted",
    }),
  ];
}
