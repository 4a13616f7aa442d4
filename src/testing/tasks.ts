/**
 * A tool call run as a task (the tasks extension of `mcp-h3/tasks`), followed to its end in either
 * era. 2026-07-28: the call declares the extension in its own `_meta` (the client's other calls do
 * not, so an `"optional"` tool stays a plain call for them), multi round-trip rounds before the task
 * exists are answered and retried, then `tasks/get` is polled and `input_required` answered with
 * `tasks/update`. 2025-11-25: the call carries `params.task`, `tasks/get` is polled for the
 * statuses, and `tasks/result` waits for the result while the server's questions reach the
 * client's request handlers on its stream.
 */
import { ProtocolError, type CallToolRequest, type CallToolResult } from "@modelcontextprotocol/client";
import type { McpTestTask, McpTestTaskOutcome, McpTestTaskStatus } from "../types/testing.ts";

/** What the task runner needs of the client. */
export interface TaskHost {
  readonly era: "legacy" | "modern";
  readonly pollMs: number;
  /** A request through the SDK client, its result unvalidated (`_meta` declares the tasks extension on 2026-07-28). */
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A 2026-07-28 `tools/call` posted as it is (the SDK's client refuses a task answer). */
  postCall(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The answer of the client's options to an input request (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
  answer(method: string, params: unknown): Promise<unknown>;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
/** A bound on the multi round-trip rounds before a task exists (the SDK's own driver allows 16). */
const MAX_ROUNDS = 16;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers every input request of a 2026-07-28 `inputRequests` map, by key. */
async function answerAll(host: TaskHost, requests: unknown): Promise<Record<string, unknown>> {
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(
    (requests ?? {}) as Record<string, { method: string; params?: unknown }>,
  )) {
    responses[key] = await host.answer(request.method, request.params ?? {});
  }
  return responses;
}

function withoutResultType(result: Record<string, unknown>): CallToolResult {
  const { resultType: _resultType, ...rest } = result;
  return rest as CallToolResult;
}

class TestTask implements McpTestTask {
  readonly statuses: McpTestTaskStatus[] = [];
  readonly taskId: string | undefined;
  readonly #host: TaskHost;
  #outcome: Promise<McpTestTaskOutcome> | undefined;
  readonly #direct: CallToolResult | undefined;

  constructor(host: TaskHost, taskId: string | undefined, status: string | undefined, direct?: CallToolResult) {
    this.#host = host;
    this.taskId = taskId;
    this.#direct = direct;
    if (status !== undefined) this.#see(status);
  }

  #see(status: string): void {
    if (this.statuses.at(-1) !== status) this.statuses.push(status as McpTestTaskStatus);
  }

  settled(): Promise<McpTestTaskOutcome> {
    if (this.#direct) return Promise.resolve({ status: "completed", result: this.#direct });
    this.#outcome ??= this.#host.era === "modern" ? this.#followModern() : this.#followLegacy();
    return this.#outcome;
  }

  async result(): Promise<CallToolResult> {
    const outcome = await this.settled();
    if (outcome.status === "completed") return outcome.result;
    if (outcome.status === "failed") throw outcome.error;
    throw new ProtocolError(-32603, `Task ${this.taskId} was cancelled`);
  }

  async cancel(): Promise<void> {
    if (this.taskId === undefined) return;
    await this.#host.request("tasks/cancel", { taskId: this.taskId });
  }

  async #followModern(): Promise<McpTestTaskOutcome> {
    for (;;) {
      const task = await this.#host.request("tasks/get", { taskId: this.taskId });
      this.#see(String(task.status));
      if (task.status === "completed") return { status: "completed", result: withoutResultType(task.result as never) };
      if (task.status === "cancelled") return { status: "cancelled" };
      if (task.status === "failed") {
        const error = task.error as { code: number; message: string; data?: unknown };
        return { status: "failed", error: ProtocolError.fromError(error.code, error.message, error.data) };
      }
      if (task.status === "input_required") {
        const inputResponses = await answerAll(this.#host, task.inputRequests);
        await this.#host.request("tasks/update", { taskId: this.taskId, inputResponses });
        continue;
      }
      await sleep(this.#host.pollMs);
    }
  }

  async #followLegacy(): Promise<McpTestTaskOutcome> {
    let over = false;
    // The statuses, while tasks/result waits (it answers only at the end).
    const polling = (async () => {
      while (!over) {
        const task = await this.#host.request("tasks/get", { taskId: this.taskId });
        this.#see(String(task.status));
        if (TERMINAL.has(String(task.status))) return;
        await sleep(this.#host.pollMs);
      }
    })();
    let outcome: McpTestTaskOutcome;
    try {
      const result = await this.#host.request("tasks/result", { taskId: this.taskId });
      outcome = { status: "completed", result: result as CallToolResult };
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      outcome = { status: "failed", error };
    } finally {
      over = true;
      await polling.catch(() => {});
    }
    // The status it ended in (tasks/result answers once it is over), and what a refusal meant.
    const task = await this.#host.request("tasks/get", { taskId: this.taskId });
    this.#see(String(task.status));
    return task.status === "cancelled" ? { status: "cancelled" } : outcome;
  }
}

/** Calls a tool as a task and returns its handle (already completed when the server answered directly). */
export async function startTask(host: TaskHost, params: CallToolRequest["params"]): Promise<McpTestTask> {
  if (host.era === "legacy") {
    const created = await host.request("tools/call", { ...params, task: {} });
    const task = created.task as { taskId: string; status: string } | undefined;
    if (!task) return new TestTask(host, undefined, undefined, created as CallToolResult);
    return new TestTask(host, task.taskId, task.status);
  }
  let call: Record<string, unknown> = { ...params };
  for (let round = 0; ; round++) {
    const answer = await host.postCall(call);
    if (answer.resultType === "task") return new TestTask(host, String(answer.taskId), String(answer.status));
    if (answer.resultType !== "input_required")
      return new TestTask(host, undefined, undefined, withoutResultType(answer));
    if (round >= MAX_ROUNDS)
      throw new ProtocolError(-32603, `tools/call asked for input more than ${MAX_ROUNDS} times`);
    const inputResponses = await answerAll(host, answer.inputRequests);
    call = {
      ...params,
      inputResponses,
      ...(answer.requestState === undefined ? {} : { requestState: answer.requestState }),
    };
  }
}
