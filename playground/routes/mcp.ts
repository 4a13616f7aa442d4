/**
 * The playground's MCP endpoint: a Nitro file route, so it answers on /mcp for every method
 * (POST for messages, GET for the session stream, DELETE to end a session).
 *
 * Every definition here is a small example of one feature of mcp-h3; try them with any MCP client
 * (the MCP inspector, an SDK client) pointed at the URL `npm run playground` prints.
 */
import {
  defineMcpHandler,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  embeddedResource,
} from "mcp-h3";
import type { LogLevel } from "mcp-h3";
import { getRequestHeader } from "h3";
import { z } from "zod";
import { tasks } from "mcp-h3/tasks";
import { activityHooks } from "../activity/log";
import { countdown } from "../tasks/countdown";
// An MCP App: show_weather renders in a view (ui://weather/view.html) in hosts that show MCP Apps.
// `npm run playground` bundles the view into one HTML file first; Nitro imports .html files as text.
import { weatherApp } from "../../examples/apps/weather";
import weatherViewHtml from "../../examples/apps/weather-view/dist/weather-view.html";

const weather = weatherApp(() => weatherViewHtml);

/** A tiny in-memory note book behind the `playground://notes/{id}` template and the `review_note` prompt. */
const notes: Record<string, { title: string; body: string }> = {
  "1": { title: "Groceries", body: "Milk, bread, coffee." },
  "2": { title: "Release", body: "Run `npm test`, then tag v0.1.0." },
  "3": { title: "Idea", body: "Serve MCP from every H3 app." },
  "12": { title: "Meeting", body: "Thursday 10:00, room 12." },
};

/** Note ids starting with what the user typed so far: shared by the template and the prompt. */
function completeNoteId(typed: string): string[] {
  return Object.keys(notes).filter((id) => id.startsWith(typed));
}

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

/** Shows what `event.context.mcp` holds for this very call. */
const whoami = defineTool({
  name: "whoami",
  title: "Who am I?",
  description: "Shows the request context the server sees for this call (era, protocol version, session, client).",
  annotations: { readOnlyHint: true },
  handler: (event) => {
    // Always set inside a definition handler; optional in the type because other routes share H3EventContext.
    const mcp = event.context.mcp!;
    // The event is Nitro's own h3 v1 event, so every h3 utility works on it.
    const userAgent = getRequestHeader(event, "user-agent");
    return [
      `era: ${mcp.era}`,
      `protocolVersion: ${mcp.protocolVersion}`,
      `sessionId: ${mcp.sessionId ?? "(none)"}`,
      `client: ${mcp.clientInfo?.name ?? "(unknown)"} ${mcp.clientInfo?.version ?? ""}`.trimEnd(),
      `requestId: ${String(mcp.requestId)}`,
      `logLevel: ${mcp.logLevel ?? "(not set)"}`,
      `userAgent: ${userAgent ?? "(none)"}`,
    ].join("\n");
  },
});

/** Progress notifications and cancellation: the call upgrades to an SSE stream at the first progress. */
const countSlowly = defineTool({
  name: "count_slowly",
  description: "Counts from 1 to `to`, waiting `delayMs` between steps and reporting progress at each one.",
  input: z.object({
    to: z.number().int().min(1).max(1000).describe("Where to stop counting"),
    delayMs: z.number().int().min(0).max(10_000).optional().describe("Pause between two steps (default 200 ms)"),
  }),
  handler: async (event, { to, delayMs = 200 }) => {
    const mcp = event.context.mcp!;
    for (let step = 1; step <= to; step++) {
      // `signal` aborts when the client cancels the call; sleeping on it stops the loop without delay.
      await sleep(delayMs, mcp.signal);
      await mcp.progress(step, to, `counted to ${step}`);
    }
    return `Counted to ${to}.`;
  },
});

/** One `notifications/message` per level; the client's `logging/setLevel` filters them. */
const logLevels = defineTool({
  name: "log_levels",
  description: "Logs one line at each level from debug to error; set a level first to see the filter work.",
  handler: async (event) => {
    const mcp = event.context.mcp!;
    const levels: LogLevel[] = ["debug", "info", "notice", "warning", "error"];
    for (const level of levels) await mcp.log(level, `a ${level} line`, "playground");
    return `Logged ${levels.length} lines (threshold: ${mcp.logLevel ?? "none set, so all are sent"}).`;
  },
});

/** Elicitation: the server asks the user a question in the middle of the call, and waits for the answer. */
const askName = defineTool({
  name: "ask_name",
  description: "Asks for your name (elicitation) and greets you.",
  handler: async (event) => {
    const mcp = event.context.mcp!;
    // Throws a JSON-RPC error (-32021) when the client did not declare the elicitation capability.
    const answer = await mcp.elicit("name", "What is your name?", z.object({ name: z.string() }));
    if (answer.action !== "accept" || !answer.content) return `No name given (${answer.action}).`;
    return `Hello, ${answer.content.name}!`;
  },
});

const readme = defineResource({
  uri: "playground://readme",
  name: "readme",
  title: "Playground README",
  mimeType: "text/markdown",
  handler: () =>
    [
      "# mcp-h3 playground",
      "",
      "Tools: `whoami`, `count_slowly`, `log_levels`, `ask_name`, and `show_weather`, an MCP App:",
      "hosts that render MCP Apps show its result in a view (`ui://weather/view.html`), whose Refresh",
      "button calls `refresh_weather` through the host.",
      "Resources: this page and `playground://notes/{id}`.",
      "Prompt: `review_note` (its `id` argument completes).",
    ].join("\n"),
});

const note = defineResourceTemplate({
  uriTemplate: "playground://notes/{id}",
  name: "note",
  description: "A note of the playground's note book",
  mimeType: "text/plain",
  // Concrete notes appear in resources/list next to the fixed resources.
  list: () => Object.entries(notes).map(([id, { title }]) => ({ uri: `playground://notes/${id}`, name: title })),
  complete: { id: completeNoteId },
  handler: (_event, { id }) => {
    const found = notes[id];
    // Nothing here: the client gets "resource not found" with its era's code (-32002 legacy, -32602 modern).
    if (!found) return undefined;
    return `${found.title}\n\n${found.body}`;
  },
});

const reviewNote = definePrompt({
  name: "review_note",
  title: "Review a note",
  description: "Asks the model to review one note, embedding the note itself",
  arguments: [{ name: "id", description: "The note's id", required: true }],
  complete: { id: completeNoteId },
  handler: async (event, { id }) => {
    // readResource goes through the server's own resources, template matching included.
    const { contents } = await event.context.mcp!.readResource(`playground://notes/${id}`);
    return [
      { role: "user", content: { type: "text", text: "Review this note. Is anything unclear or missing?" } },
      ...contents.map((item) => ({ role: "user" as const, content: embeddedResource(item) })),
    ];
  },
});

export default defineMcpHandler({
  name: "mcp-h3-playground",
  version: "0.1.0",
  instructions: "A demo server: try whoami first, then count_slowly with a progress-aware client.",
  // Declares the logging capability, so log() sends and logging/setLevel is served.
  logging: true,
  tools: [whoami, countSlowly, logLevels, askName, countdown, ...weather.tools],
  // Tasks (both eras): countdown may run as a task, on the memory task store.
  extensions: [tasks()],
  resources: [readme, note, ...weather.resources],
  prompts: [reviewNote],
  // Feeds the live activity on the playground's page (/): one entry per request, from the library's own hooks.
  hooks: activityHooks,
});
