/**
 * A tiny job queue, written as a stranger to mcp-h3 would write it: it imports `mcp-h3` and nothing
 * else. The tools it names run as jobs: their `tools/call` answers at once with a job id, the tool
 * goes on detached from the request (`call.run`), and the caller reads the outcome with
 * `example/jobs.get` or stops it with `example/jobs.cancel`, in either era. The example of
 * docs/guide/writing-an-extension.md, which shows this file; test/extension-job-queue.test.ts
 * drives it over HTTP.
 */
import {
  ErrorCode,
  McpError,
  echoValue,
  isMcpError,
  type JsonObject,
  type McpExtension,
  type McpMethodCall,
} from "mcp-h3";

export interface JobQueueOptions {
  /** The tools that run as jobs. */
  readonly tools: readonly string[];
  /** The most jobs kept at once, running or done (default 100): a full queue refuses new ones. */
  readonly maxJobs?: number;
}

interface Job {
  readonly owner: string;
  readonly controller: AbortController;
  outcome?: { result: JsonObject } | { error: JsonObject };
}

/** The extension: `defineMcpHandler({ …, extensions: [jobQueue({ tools: ["report"] })] })`. */
export function jobQueue(options: JobQueueOptions): McpExtension {
  const maxJobs = options.maxJobs ?? 100;
  return {
    name: "example/jobs",
    plug(server) {
      const jobs = new Map<string, Job>();
      // A job is its caller's: the principal (auth on), else the legacy session, else nobody's.
      const ownerOf = (call: McpMethodCall): string => call.context.principal ?? call.context.sessionId ?? "anonymous";
      const jobOf = (call: McpMethodCall): [string, Job] => {
        const id = call.params.jobId;
        const job = typeof id === "string" ? jobs.get(id) : undefined;
        // Another caller's job is answered as an unknown one: ids are not secrets to lean on.
        if (!job || job.owner !== ownerOf(call)) {
          throw new McpError(ErrorCode.InvalidParams, `Unknown job: ${echoValue(id)}`);
        }
        return [id as string, job];
      };

      server.advertise({ extensions: { "example/jobs": { tools: [...options.tools] } } });
      server.wrapToolCall((call, next) => {
        if (!call.tool || !options.tools.includes(call.tool.name)) return next();
        if (jobs.size >= maxJobs) throw new McpError(ErrorCode.InternalError, "The job queue is full");
        const id = crypto.randomUUID();
        const job: Job = { owner: ownerOf(call), controller: new AbortController() };
        jobs.set(id, job);
        // The tool, on its own from here: its `mcp.signal` is this controller's, not the request's.
        const work = call.run({ signal: job.controller.signal }).then(
          (result) => void (job.outcome = { result }),
          (error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            job.outcome = { error: { code: isMcpError(error) ? error.code : ErrorCode.InternalError, message } };
          },
        );
        server.incidents.own(work);
        return { content: [{ type: "text", text: `Job ${id} started` }], structuredContent: { jobId: id } };
      });
      server.method("example/jobs.get", (call) => {
        const [id, job] = jobOf(call);
        if (!job.outcome) return { status: "working" };
        // A finished job is read once, then forgotten: the queue stays bounded.
        jobs.delete(id);
        return { status: "done", ...job.outcome };
      });
      server.method("example/jobs.cancel", (call) => {
        const [id, job] = jobOf(call);
        job.controller.abort(new Error("cancelled by its caller"));
        jobs.delete(id);
        return {};
      });
      server.onClose(() => {
        for (const job of jobs.values()) job.controller.abort(new Error("the server closed"));
        jobs.clear();
      });
    },
  };
}
