/**
 * The server the tests of `mcp-h3/testing` drive: a tool of each kind the entry's options and
 * helpers serve (plain, eliciting, sampling, asking for roots, reporting progress and logging,
 * reading the client's capabilities and headers, a task answered and one that waits to be
 * cancelled, an app with its view), a prompt, a resource, and a completion.
 */
import { defineMcpApp } from "../../src/_entries/apps.ts";
import {
  defineMcpFetchHandler,
  defineMcpHandler,
  definePrompt,
  defineResource,
  defineTool,
  McpError,
  type McpHandlerOptions,
} from "../../src/index.ts";
import { tasks } from "../../src/_entries/tasks.ts";
import { deferred, type Deferred } from "./deferred.ts";

const NAME = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What each `wait_cancel` task's handler saw, by its `id` argument: its signal's abort reason. */
export const cancelSeen = new Map<string, Deferred<string>>();

/** Where the `wait_cancel` call with `id` reports its abort. */
export function watchCancel(id: string): Deferred<string> {
  const seen = deferred<string>();
  cancelSeen.set(id, seen);
  return seen;
}

export const weatherApp = defineMcpApp({
  name: "weather",
  description: "Shows the forecast",
  handler: () => ({ content: [{ type: "text", text: "21 °C" }], structuredContent: { celsius: 21 } }),
  view: {
    html: "<!doctype html><title>Weather</title><main></main>",
    csp: { connectDomains: ["https://api.example.com"] },
  },
});

export function serverOptions(overrides: Partial<McpHandlerOptions> = {}): McpHandlerOptions {
  return {
    name: "testing-entry",
    version: "1.0.0",
    extensions: [tasks({ pollIntervalMs: 1000 })],
    logging: true,
    tools: [
      defineTool({
        name: "echo",
        input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        handler: (_event, { text }) => String(text),
      }),
      defineTool({
        name: "greet",
        handler: async (event) => {
          const answer = await event.context.mcp!.elicit("who", "Who are you?", NAME);
          return answer.action === "accept" ? `Hello, ${String(answer.content?.name)}!` : `No name (${answer.action})`;
        },
      }),
      defineTool({
        name: "haiku",
        handler: async (event) => {
          const sampled = await event.context.mcp!.sample("poem", "Write a haiku");
          const content = sampled.content as { type: string; text?: string };
          return `model ${sampled.model} wrote: ${content.text ?? content.type}`;
        },
      }),
      defineTool({
        name: "roots",
        handler: async (event) => {
          const { roots } = await event.context.mcp!.listRoots("roots");
          return roots.map((root) => root.uri).join(" ");
        },
      }),
      defineTool({
        name: "count",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          for (let step = 1; step <= 3; step++) {
            await mcp.progress(step, 3, `step ${step}`);
            await mcp.log("info", `did step ${step}`);
          }
          return "counted";
        },
      }),
      defineTool({
        name: "whoami",
        handler: (event) => {
          const mcp = event.context.mcp!;
          return JSON.stringify({
            era: mcp.era,
            capabilities: mcp.clientCapabilities,
            client: mcp.clientInfo?.name,
            header: event.req.headers.get("x-test"),
          });
        },
      }),
      defineTool({
        name: "hang",
        handler: (event) =>
          new Promise<string>((resolve) => event.context.mcp!.signal.addEventListener("abort", () => resolve("gone"))),
      }),
      defineTool({
        name: "report",
        task: "optional",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          await mcp.task?.setStatusMessage("collecting");
          await sleep(5);
          const answer = await mcp.elicit("drafts", "Include drafts?", NAME);
          return `report for ${String(answer.content?.name)}`;
        },
      }),
      defineTool({
        name: "wait_cancel",
        task: "required",
        input: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        handler: async (event, { id }) => {
          const signal = event.context.mcp!.signal;
          await sleep(5);
          if (!signal.aborted) {
            await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
          }
          cancelSeen.get(String(id))?.resolve(String(signal.reason));
          return "too late";
        },
      }),
      defineTool({
        name: "change",
        handler: async (event) => {
          await event.context.mcp!.notify.toolsChanged();
          return "changed";
        },
      }),
      defineTool({
        name: "doomed",
        task: "optional",
        handler: async () => {
          await sleep(5);
          throw new McpError(-32050, "the report could not be built", { why: "test" });
        },
      }),
      defineTool({
        name: "regional",
        input: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
        handler: (_event, { region }) => `region ${String(region)}`,
      }),
      weatherApp.tool,
    ],
    resources: [defineResource({ uri: "memo://readme", name: "readme", handler: () => "read me" }), weatherApp.view],
    prompts: [
      definePrompt({
        name: "hello",
        arguments: [{ name: "who" }],
        complete: { who: (value) => ["world", "web"].filter((each) => each.startsWith(value)) },
        handler: (_event, args) => `Say hello to ${String(args.who)}`,
      }),
    ],
    ...overrides,
  };
}

export const buildEventHandler = (overrides?: Partial<McpHandlerOptions>) => defineMcpHandler(serverOptions(overrides));
export const buildFetchHandler = (overrides?: Partial<McpHandlerOptions>) =>
  defineMcpFetchHandler(serverOptions(overrides));
