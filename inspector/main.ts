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
import { schemaForm } from "./schema-form.ts";
import { showSkills } from "./skills.ts";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/app-bridge";
import { TASKS_EXTENSION, openTaskSession, taskSupport } from "./tasks.ts";
import type { TaskEnabledSession } from "@modelcontextprotocol/ext-tasks/client";
import {
  callAsTask,
  callTool,
  cancelCall,
  clearCallOutput,
  closeAppView,
  runningSignal,
  type CallScope,
} from "./calls.ts";

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
    (request) => answerElicitation(request.params, runningSignal()) as never,
  );
  next.setRequestHandler(
    "sampling/createMessage",
    (request) => answerSampling(request.params, runningSignal()) as never,
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
  try {
    taskSession = openTaskSession({
      client: next,
      modern,
      endpoint: url,
      fetch: recordingFetch(),
      headers,
      tools,
      elicit: (params, signal) => answerElicitation(params as never, signal ?? runningSignal()),
      sample: (params, signal) => answerSampling(params as never, signal ?? runningSignal()),
      roots: currentRoots,
    });
  } catch (error) {
    // Tools still work without it: only "Run as a task" needs the tasks session.
    console.warn("tasks session:", error);
  }
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
  byId("offer-tasks-box").hidden = !(modern && modernTasks());
  // The legacy session asks once for every log level; the modern era carries the level on each request.
  if (!modern && next.getServerCapabilities()?.logging) await next.setLoggingLevel("debug").catch(() => {});
  await refreshLists();
}

async function disconnect(): Promise<void> {
  cancelCall();
  const previous = client;
  const previousTasks = taskSession;
  client = undefined;
  taskSession = undefined;
  disconnectButton.disabled = true;
  await closeAppView();
  if (previousTasks) await previousTasks.close().catch(() => {});
  if (previous) await previous.close().catch(() => {});
  for (const id of ["tools", "resources", "templates", "prompts", "read-result"]) byId(id).replaceChildren();
  tools.clear();
  prompts.clear();
  templates.clear();
  byId("catalog-detail").hidden = true;
  byId("tool-detail").hidden = true;
  byId("offer-tasks-box").hidden = true;
  void showSkills(undefined);
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
  await Promise.all([...jobs, showSkills(client)]);
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
  clearCallOutput();
  const { form, read } = schemaForm(tool.inputSchema, `Call ${tool.name}`);
  form.id = "tool-form";
  // A tool whose execution.taskSupport allows it is called as a task when this box is ticked (always, when it
  // must). Only legacy listings say so: in the modern era the server decides, and the tools panel's "Offer tasks"
  // box (shown when the server offers the tasks extension) declares the extension on every call.
  const support = taskSupport(tool);
  if (support !== "forbidden") {
    const box = el("input", { type: "checkbox", id: "as-task", checked: true, disabled: support === "required" });
    form.prepend(el("label", { className: "check" }, box, ` Run as a task (${support})`));
  }
  byId("tool-form").replaceWith(form);
  // Keyboard users land in the form: its first field, or the Call button of a tool without arguments.
  form.querySelector<HTMLElement>("[data-arg], button[type='submit']")?.focus();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const args = read();
    // A refused form sends nothing: the last call's result must not stand as if it answered this one.
    if (!args) return clearCallOutput();
    if (!client) return;
    const asTask = modern
      ? byId<HTMLInputElement>("offer-tasks").checked && modernTasks()
      : form.querySelector<HTMLInputElement>("#as-task")?.checked === true;
    const scope: CallScope = { client, modern, taskSession, tools, sandboxOrigin: config.sandboxOrigin };
    void (asTask ? callAsTask(scope, tool.name, args) : callTool(scope, tool.name, args));
  });
}

/** Whether the modern server offers the tasks extension. */
function modernTasks(): boolean {
  const extensions = (client?.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  return extensions?.[TASKS_EXTENSION] !== undefined;
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
byId("cancel").addEventListener("click", cancelCall);
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
/**
 * `?connect=1` connects at once to the server's own endpoint or one of this page's origin. An endpoint of another
 * origin named by the link waits for the user's Connect: a link must not open this page on a server of its choice
 * (showing that server's forms and asking for answers as if they came from here).
 */
function connectFromLink(): void {
  let target: URL | undefined;
  try {
    target = new URL(endpointInput.value, location.href);
  } catch {
    target = undefined;
  }
  if (params.get("endpoint") === null || target?.origin === location.origin) {
    void connect();
    return;
  }
  state.textContent = `This link names an endpoint on another origin (${target?.origin ?? endpointInput.value}). Check it, then press Connect.`;
  connectButton.focus();
}
if (params.get("connect") === "1") connectFromLink();
