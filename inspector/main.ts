/**
 * The inspector page: the official 2.x MCP client (`@modelcontextprotocol/client`) in the browser,
 * connected in the era the user picks (legacy: no negotiation; modern: pinned to 2026-07-28; auto:
 * probe, then fall back), listing what the server offers and calling its tools through forms
 * generated from their input schemas. Every HTTP exchange shows in the protocol panel.
 */
import { zodConfig } from "./zod-jitless.ts";
import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
  type Prompt,
  type ResourceTemplateType as ResourceTemplate,
  type Tool,
  type VersionNegotiationOptions,
} from "@modelcontextprotocol/client";
import { answerElicitation, answerSampling } from "./asks.ts";
import { showContents, showPrompt, showTemplate } from "./catalog.ts";
import { byId, el, json } from "./dom.ts";
import { recordingFetch } from "./protocol.ts";
import { renderError, renderResult } from "./render.ts";
import { schemaForm } from "./schema-form.ts";
import { getToolUiResourceUri, mountAppView, type AppView } from "./app-view.ts";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/app-bridge";
import { TASKS_EXTENSION, openTaskSession, runAsTask, taskSupport } from "./tasks.ts";
import type { TaskEnabledSession, TaskView } from "@modelcontextprotocol/ext-tasks/client";

type Mode = "legacy" | "modern" | "auto";
const MODERN_VERSION = "2026-07-28";
const NEGOTIATION: Record<Mode, VersionNegotiationOptions> = {
  legacy: { mode: "legacy" },
  modern: { mode: { pin: MODERN_VERSION } },
  auto: { mode: "auto" },
};

if (!zodConfig.jitless) throw new Error("zod must be jitless before the client loads (see zod-jitless.ts)");
const config = JSON.parse(byId("mcp-inspector-config").textContent ?? "{}") as {
  endpoint?: string;
  auth?: boolean;
  /** Where MCP App views are framed from (another origin reaching the same handler), if anywhere. */
  sandboxOrigin?: string;
};
const endpointInput = byId<HTMLInputElement>("endpoint");
const eraSelect = byId<HTMLSelectElement>("era");
const tokenInput = byId<HTMLInputElement>("token");
const state = byId("connection-state");
const connectButton = byId<HTMLButtonElement>("connect");
const disconnectButton = byId<HTMLButtonElement>("disconnect");
const params = new URLSearchParams(location.search);
endpointInput.value = params.get("endpoint") ?? config.endpoint ?? "/mcp";
const initialEra = params.get("era");
if (initialEra === "legacy" || initialEra === "modern" || initialEra === "auto") eraSelect.value = initialEra;
byId<HTMLDetailsElement>("auth-box").open = config.auth === true;

let client: Client | undefined;
let taskSession: TaskEnabledSession | undefined;

/** The roots typed in the connection box: one URI per line, blank lines skipped. */
function currentRoots(): { uri: string }[] {
  return byId<HTMLTextAreaElement>("roots")
    .value.split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((uri) => ({ uri }));
}
let modern = false;
let running: AbortController | undefined;

async function connect(): Promise<void> {
  await disconnect();
  const mode = eraSelect.value as Mode;
  const next = new Client(
    { name: "mcp-h3-inspector", version: "0.1.0" },
    // Elicitation (form and URL) and sampling are answered by the user in the page (asks.ts). In the modern era
    // the client's multi round-trip driver calls the same handlers for a result's input requests.
    {
      capabilities: {
        elicitation: { form: {}, url: {} },
        sampling: {},
        roots: { listChanged: true },
        // The page renders MCP Apps: servers may read this to answer with or without a view.
        extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } },
      },
      versionNegotiation: NEGOTIATION[mode],
    },
  );
  next.setRequestHandler("roots/list", () => ({ roots: currentRoots() }));
  next.setRequestHandler(
    "elicitation/create",
    (request) => answerElicitation(request.params, running?.signal) as never,
  );
  next.setRequestHandler(
    "sampling/createMessage",
    (request) => answerSampling(request.params, running?.signal) as never,
  );
  next.setNotificationHandler("notifications/message", (notification) => {
    const { level, data, logger } = notification.params;
    byId("call-logs").append(
      el(
        "li",
        { "data-level": level },
        `[${level}]${logger ? ` ${logger}` : ""} ${typeof data === "string" ? data : json(data)}`,
      ),
    );
  });
  next.onerror = (error) => void console.warn("mcp client:", error);
  const token = tokenInput.value.trim();
  state.textContent = `Connecting (${mode})…`;
  connectButton.disabled = true;
  const url = new URL(endpointInput.value, location.href);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  // A 401 is named as such, whatever error the client library builds from it.
  let challenge: string | undefined;
  const watch = (response: Response): void => {
    if (response.status === 401) challenge = response.headers.get("www-authenticate") ?? "";
  };
  try {
    await next.connect(
      new StreamableHTTPClientTransport(url, { fetch: recordingFetch(watch), requestInit: { headers } }),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    state.textContent =
      challenge === undefined
        ? `Connection failed: ${reason}`
        : `Unauthorized (HTTP 401): the server wants a bearer token${token ? "; this one was refused" : ""}. ` +
          `Type it in the Token field and connect again.${challenge ? ` (WWW-Authenticate: ${challenge})` : ""}`;
    if (challenge !== undefined) byId<HTMLDetailsElement>("auth-box").open = true;
    state.className = "error";
    connectButton.disabled = false;
    await next.close().catch(() => {});
    return;
  }
  client = next;
  modern = next.getProtocolEra() === "modern";
  taskSession = openTaskSession({
    client: next,
    modern,
    endpoint: url,
    fetch: recordingFetch(),
    headers,
    tools,
    elicit: (params, signal) => answerElicitation(params as never, signal ?? running?.signal),
    sample: (params, signal) => answerSampling(params as never, signal ?? running?.signal),
    roots: currentRoots,
  });
  const version = next.getNegotiatedProtocolVersion() ?? "?";
  const server = next.getServerVersion();
  state.className = "ok";
  state.replaceChildren(
    `Connected (${mode} mode) to ${server?.name ?? "?"} ${server?.version ?? ""}: era `,
    el("strong", { id: "era-shown" }, modern ? "modern" : "legacy"),
    ", protocol version ",
    el("strong", { id: "negotiated-version" }, version),
  );
  connectButton.disabled = false;
  disconnectButton.disabled = false;
  // The legacy session asks once for every log level; the modern era carries the level on each request.
  if (!modern && next.getServerCapabilities()?.logging) await next.setLoggingLevel("debug").catch(() => {});
  await refreshLists();
}

async function disconnect(): Promise<void> {
  running?.abort();
  const previous = client;
  const previousTasks = taskSession;
  client = undefined;
  taskSession = undefined;
  disconnectButton.disabled = true;
  await closeAppView();
  if (previousTasks) await previousTasks.close().catch(() => {});
  if (previous) await previous.close().catch(() => {});
  for (const id of ["tools", "resources", "templates", "prompts", "read-result"]) byId(id).replaceChildren();
  byId("catalog-detail").hidden = true;
  byId("tool-detail").hidden = true;
  state.textContent = "Not connected";
  state.className = "";
}

/** Lists each kind the server declares; a failing list shows its error in place. */
async function refreshLists(): Promise<void> {
  if (!client) return;
  const caps = client.getServerCapabilities() ?? {};
  const meta = modern ? { _meta: { [LOG_LEVEL_META_KEY]: "debug" } } : {};
  const jobs: Promise<void>[] = [];
  if (caps.tools) {
    jobs.push(
      list(
        "tools",
        () => client!.listTools(meta).then((r) => r.tools),
        (tool) => el("button", { type: "button", "data-tool": tool.name, title: tool.description ?? "" }, tool.name),
      ),
    );
  }
  if (caps.resources) {
    jobs.push(
      list(
        "resources",
        () => client!.listResources(meta).then((r) => r.resources),
        (resource) => el("button", { type: "button", "data-uri": resource.uri, title: resource.uri }, resource.name),
      ),
    );
    jobs.push(
      list(
        "templates",
        () => client!.listResourceTemplates(meta).then((r) => r.resourceTemplates),
        (template) => {
          templates.set(template.uriTemplate, template);
          return el(
            "button",
            { type: "button", "data-template": template.uriTemplate, title: template.description ?? "" },
            el("code", {}, template.uriTemplate),
          );
        },
      ),
    );
  }
  if (caps.prompts) {
    jobs.push(
      list(
        "prompts",
        () => client!.listPrompts(meta).then((r) => r.prompts),
        (prompt) => {
          prompts.set(prompt.name, prompt);
          return el(
            "button",
            { type: "button", "data-prompt": prompt.name, title: prompt.description ?? "" },
            prompt.name,
          );
        },
      ),
    );
  }
  await Promise.all(jobs);
}

const tools = new Map<string, Tool>();
const prompts = new Map<string, Prompt>();
const templates = new Map<string, ResourceTemplate>();

async function list<T extends { name?: string }>(
  id: string,
  load: () => Promise<T[]>,
  item: (entry: T) => HTMLElement,
): Promise<void> {
  const target = byId(id);
  try {
    const entries = await load();
    if (id === "tools") for (const tool of entries as never[]) tools.set((tool as { name: string }).name, tool);
    target.replaceChildren(...entries.map((entry) => el("li", {}, item(entry))));
    target.dataset.loaded = "true";
  } catch (error) {
    target.replaceChildren(el("li", { className: "error" }, String(error)));
  }
}

function showTool(name: string): void {
  const tool = tools.get(name);
  if (!tool) return;
  for (const button of byId("tools").querySelectorAll("button"))
    button.setAttribute("aria-pressed", String(button.dataset.tool === name));
  byId("tool-detail").hidden = false;
  byId("tool-name").textContent = tool.name;
  byId("tool-description").textContent = tool.description ?? "";
  byId("result").replaceChildren();
  byId("call-logs").replaceChildren();
  const { form, read } = schemaForm(tool.inputSchema, `Call ${tool.name}`);
  form.id = "tool-form";
  // Legacy: a tool whose execution.taskSupport allows it is called as a task when this box is ticked (always,
  // when it must). Modern: the server decides which call becomes a task; the box offers the tasks extension.
  const support = modern ? (modernTasks() ? "the server decides" : "forbidden") : taskSupport(tool);
  if (support !== "forbidden") {
    const box = el("input", { type: "checkbox", id: "as-task", checked: !modern, disabled: support === "required" });
    form.prepend(el("label", { className: "as-task" }, el("span", {}, box, ` Run as a task (${support})`)));
  }
  byId("tool-form").replaceWith(form);
  byId("task-box").hidden = true;
  void closeAppView();
  // Keyboard users land in the form: its first field, or the Call button of a tool without arguments.
  form.querySelector<HTMLElement>("[data-arg], button[type='submit']")?.focus();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const args = read();
    const asTask = form.querySelector<HTMLInputElement>("#as-task")?.checked === true;
    if (args) void (asTask ? callAsTask(tool.name, args) : callTool(tool.name, args));
  });
}

async function callTool(name: string, args: Record<string, unknown>): Promise<void> {
  if (!client) return;
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const live = byId("call-live");
  const bar = byId<HTMLProgressElement>("call-progress");
  const text = byId("call-progress-text");
  const result = byId("result");
  live.hidden = false;
  bar.removeAttribute("value");
  text.textContent = "Running…";
  result.replaceChildren();
  byId("call-logs").replaceChildren();
  try {
    const answer = await client.callTool(
      { name, arguments: args, ...(modern ? { _meta: { [LOG_LEVEL_META_KEY]: "debug" } } : {}) },
      {
        signal: controller.signal,
        onprogress: (progress) => {
          if (progress.total) {
            bar.max = progress.total;
            bar.value = progress.progress;
          }
          text.textContent = `${progress.progress}${progress.total ? ` / ${progress.total}` : ""}${progress.message ? `: ${progress.message}` : ""}`;
        },
      },
    );
    renderResult(result, answer as never);
    const tool = tools.get(name);
    if (tool && getToolUiResourceUri(tool)) await showAppView(tool, args, answer as never);
  } catch (error) {
    renderError(result, controller.signal.aborted ? new Error("Cancelled") : error);
  } finally {
    if (running === controller) running = undefined;
    live.hidden = true;
  }
}

let appView: AppView | undefined;

/** Closes the MCP App view shown, if any. */
async function closeAppView(): Promise<void> {
  const previous = appView;
  appView = undefined;
  byId("app-view").hidden = true;
  byId("app-log").replaceChildren();
  await previous?.close();
}

/** Shows the tool's MCP App view under its result, in a sandboxed frame on the sandbox origin. */
async function showAppView(tool: Tool, args: Record<string, unknown>, result: never): Promise<void> {
  await closeAppView();
  const box = byId("app-view");
  const log = (line: string): void => void byId("app-log").append(el("li", {}, line));
  box.hidden = false;
  if (!client) return;
  if (!config.sandboxOrigin) {
    log(
      "Not shown: this page has no sandbox origin (set appSandboxOrigin, or open the page on localhost or 127.0.0.1)",
    );
    return;
  }
  const sandbox = config.sandboxOrigin;
  try {
    appView = await mountAppView({
      client,
      tool,
      tools,
      args,
      result,
      container: byId("app-frame-box"),
      sandboxUrl: (csp) =>
        `${sandbox}${location.pathname}?mcp-app-sandbox=1&csp=${encodeURIComponent(JSON.stringify(csp ?? null))}`,
      host: { name: "mcp-h3-inspector", version: "0.1.0" },
      log,
    });
  } catch (error) {
    log(`failed: ${String(error)}`);
  }
}

/** Whether the modern server offers the tasks extension. */
function modernTasks(): boolean {
  const extensions = (client?.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  return extensions?.[TASKS_EXTENSION] !== undefined;
}

/** Shows a task's state in #task-box: its id, status and status message. */
function showTask(task: TaskView): void {
  byId("task-box").hidden = false;
  byId("task-id").textContent = task.taskId;
  byId("task-status").textContent = task.status;
  byId("task-status").dataset.status = task.status;
  byId("task-message").textContent = task.statusMessage ?? "";
}

/** Calls a tool as a task and follows it to its end; Cancel sends tasks/cancel. */
async function callAsTask(name: string, args: Record<string, unknown>): Promise<void> {
  if (!client || !taskSession) return;
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const live = byId("call-live");
  const result = byId("result");
  live.hidden = false;
  byId<HTMLProgressElement>("call-progress").removeAttribute("value");
  byId("call-progress-text").textContent = "Task started…";
  result.replaceChildren();
  byId("call-logs").replaceChildren();
  byId("task-box").hidden = true;
  try {
    const run = await runAsTask(
      taskSession,
      name,
      args,
      { onTask: showTask },
      controller.signal,
      modern ? undefined : client,
    );
    if (run.cancelled) {
      // The library's outcome says so; in the modern era it may carry no final task view.
      byId("task-status").textContent = "cancelled";
      byId("task-status").dataset.status = "cancelled";
      renderError(result, new Error("Task cancelled"));
    } else renderResult(result, run.result as never);
  } catch (error) {
    renderError(result, error);
  } finally {
    if (running === controller) running = undefined;
    live.hidden = true;
  }
}

byId("connect-form").addEventListener("submit", (event) => {
  event.preventDefault();
  void connect();
});
disconnectButton.addEventListener("click", () => void disconnect());
// A legacy session is told when the roots change; the modern era asks for them with each request that needs them.
byId("roots").addEventListener("change", () => {
  if (client && !modern) client.sendRootsListChanged().catch(() => {});
});
byId("cancel").addEventListener("click", () => running?.abort());
byId("tools").addEventListener("click", (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-tool]");
  if (button) showTool(button.dataset.tool!);
});
byId("resources").addEventListener("click", (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-uri]");
  if (!button || !client) return;
  byId("catalog-detail").hidden = true;
  client
    .readResource({ uri: button.dataset.uri! })
    .then((read) => showContents(byId("read-result"), read.contents))
    .catch((error: unknown) => (byId("read-result").textContent = String(error)));
});
byId("templates").addEventListener("click", (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-template]");
  const template = button && templates.get(button.dataset.template!);
  if (template && client) showTemplate(client, template);
});
byId("prompts").addEventListener("click", (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-prompt]");
  const prompt = button && prompts.get(button.dataset.prompt!);
  if (prompt && client) showPrompt(client, prompt);
});
if (params.get("connect") === "1") void connect();
