/**
 * The tools the conformance suite's `tasks-*` scenarios drive (SEP-2663), built only with the
 * public API: `greet` never runs as a task; the others may (`task: "optional"`) or must
 * (`"required"`). Each waits on `mcp.signal`, so `tasks/cancel` stops it.
 */
import { ErrorCode, McpError, defineTool } from "mcp-h3";

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    function stop(): void {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }
    signal.addEventListener("abort", stop, { once: true });
  });
}

const CONFIRM_FORM = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] } as const;
const NAME_FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

export const taskTools = [
  defineTool({
    name: "greet",
    description: "Greets by name, at once (never a task)",
    input: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    handler: (_event, { name }) => `Hello, ${String(name)}!`,
  }),
  defineTool({
    name: "slow_compute",
    description: "Sleeps `seconds` seconds, then answers (a task when the client uses tasks)",
    task: "optional",
    input: {
      type: "object",
      properties: { seconds: { type: "number", minimum: 0, maximum: 600 }, label: { type: "string" } },
      required: ["seconds"],
    },
    handler: async (event, { seconds, label }) => {
      const mcp = event.context.mcp!;
      await mcp.task?.setStatusMessage(`Computing ${String(label ?? "a result")} for ${String(seconds)} s`);
      await sleep(Number(seconds) * 1000, mcp.signal);
      return `Computed ${String(label ?? "result")} after ${String(seconds)} s`;
    },
  }),
  defineTool({
    name: "failing_job",
    description: "Fails after about a second with a tool error (a task only)",
    task: "required",
    handler: async (event) => {
      await sleep(1000, event.context.mcp!.signal);
      throw new Error("The job failed: this tool always fails");
    },
  }),
  defineTool({
    name: "protocol_error_job",
    description: "Fails with a protocol error (a task only)",
    task: "required",
    handler: () => {
      throw new McpError(ErrorCode.InternalError, "The job hit an internal error");
    },
  }),
  defineTool({
    name: "confirm_delete",
    description: "Looks the file up, then asks the user to confirm its deletion",
    task: "optional",
    input: { type: "object", properties: { filename: { type: "string" } }, required: ["filename"] },
    handler: async (event, { filename }) => {
      const mcp = event.context.mcp!;
      // The look-up waits, so the call is a task by the time it asks (earlier asks are MRTR rounds).
      await sleep(10, mcp.signal);
      const answer = await mcp.elicit("confirm", `Delete ${String(filename)}?`, CONFIRM_FORM);
      return answer.action === "accept" && answer.content?.confirm ? `Deleted ${String(filename)}` : "Kept";
    },
  }),
  defineTool({
    name: "multi_input",
    description: "Asks two questions at once",
    task: "optional",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      await sleep(10, mcp.signal);
      const [first, second] = await Promise.all([
        mcp.elicit("first", "First name?", NAME_FORM),
        mcp.elicit("second", "Second name?", NAME_FORM),
      ]);
      return `Got ${String(first.content?.name)} and ${String(second.content?.name)}`;
    },
  }),
  defineTool({
    name: "test_tool_with_task",
    description: "Asks for a name (MRTR round, no task yet), then runs as a task",
    task: "required",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      const answer = await mcp.elicit("user_name", "Your name?", NAME_FORM);
      await sleep(10, mcp.signal);
      return `Hello, ${String(answer.content?.name)}, from a task`;
    },
  }),
];
