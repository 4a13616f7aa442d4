/**
 * The playground's task tool: a countdown that may run as a task (`mcp-h3/tasks`). Called with the
 * tasks extension (2026-07-28) or `params.task` (2025-11-25), it answers at once with a task id;
 * `tasks/get` then shows its status message ("3 s left"), it asks for a go at the end (the task goes
 * `input_required` until `tasks/update`, or the legacy `tasks/result` stream, answers), and
 * `tasks/cancel` stops it. Called plainly, it is an ordinary call that reports progress.
 */
import { z } from "zod";

const GO = z.object({ go: z.boolean().describe("Lift off?") });

export default defineMcpTool({
  description: "Counts down `from` seconds (status message and progress each second), then asks for a go; cancellable",
  input: z.object({ from: z.number().int().min(1).max(60).default(5) }),
  task: "optional",
  handler: async (event, { from }) => {
    const mcp = event.context.mcp;
    for (let left = from; left > 0; left--) {
      await mcp.task?.setStatusMessage(`${left} s left`);
      await mcp.progress(from - left, from, `${left} s left`);
      // One second, or less when the task is cancelled (tasks/cancel) or the plain call's client goes away.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 1000);
        mcp.signal.addEventListener("abort", done, { once: true });
        function done(): void {
          clearTimeout(timer);
          mcp.signal.removeEventListener("abort", done);
          resolve();
        }
      });
      if (mcp.signal.aborted) return "Countdown stopped";
    }
    await mcp.task?.setStatusMessage("Waiting for a go");
    const answer = await mcp.elicit("go", "Lift off?", GO);
    return answer.action === "accept" && answer.content?.go ? "Lift off!" : "Held on the pad";
  },
});
