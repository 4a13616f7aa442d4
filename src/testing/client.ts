/**
 * The test client: the official 2.x client (`@modelcontextprotocol/client`), so everything users know
 * of it works, with what tests need on top: every notification it received, in order; a tool run as
 * a task; an MCP App's view; `await using`. The same answer functions serve the legacy era's
 * server→client requests and the modern era's input requests.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  Client,
  PROTOCOL_VERSION_META_KEY,
  type CallToolRequest,
  type CallToolResult,
  type ClientCapabilities,
  type JSONRPCNotification,
  type MessageExtraInfo,
} from "@modelcontextprotocol/client";
import type {
  McpTestAppView,
  McpTestClientOptions,
  McpTestDirectoryChild,
  McpTestSkill,
  McpTestSkillFile,
  McpTestTask,
} from "../types/testing.ts";
import { allPages, readSkillFile, type SkillsHost } from "./skills.ts";
import { startTask, type TaskHost } from "./tasks.ts";
import { postRequest, type WireMessage } from "./wire.ts";
import type { ResolvedTarget } from "./target.ts";

const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const RESOURCE_URI_META_KEY = "ui/resourceUri";
/** How many notifications {@link McpTestClient.notifications} keeps (the oldest go first). */
const NOTIFICATIONS_KEPT = 10_000;

/** A Standard Schema that takes any result as it is (for the task methods, whose shapes differ by era). */
const ANY_RESULT = {
  "~standard": {
    version: 1 as const,
    vendor: "mcp-h3",
    validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
  },
};

/** A notification as the client received it. */
export interface McpTestNotification {
  method: string;
  params?: Record<string, unknown>;
}

/** What the client was built with, besides its options. */
interface Wiring {
  target: ResolvedTarget;
  options: McpTestClientOptions;
  timeout: number;
  /** How often a task is polled (`taskPollMs`, checked). */
  taskPollMs: number;
}

/** The official client, connected to a handler, an app or a URL; see `createMcpTestClient`. */
export class McpTestClient extends Client {
  /** Every notification received (progress, log messages, list changes, task statuses…), in order; the latest 10,000. */
  readonly notifications: McpTestNotification[] = [];
  readonly #wiring: Wiring;
  readonly #capabilities: ClientCapabilities;
  #nextRawId = 0;

  constructor(wiring: Wiring, capabilities: ClientCapabilities) {
    const { options } = wiring;
    const era = options.era ?? "modern";
    super(options.clientInfo ?? { name: "mcp-h3-test-client", version: "1.0.0" }, {
      capabilities,
      versionNegotiation: { mode: era === "modern" ? { pin: "2026-07-28" } : era },
    });
    this.#wiring = wiring;
    this.#capabilities = capabilities;
    // Every request gets the client's timeout unless it names its own: a call never answered fails, never
    // hangs. Set on the instance, so the SDK's own overloads stay the type users see.
    const request = Client.prototype.request;
    const timeout = wiring.timeout;
    this.request = ((message: never, schemaOrOptions?: object, maybeOptions?: object) =>
      schemaOrOptions !== undefined && "~standard" in schemaOrOptions
        ? request.call(this, message, schemaOrOptions as never, { timeout, ...maybeOptions })
        : request.call(this, message, { timeout, ...schemaOrOptions } as never)) as Client["request"];
  }

  /** The era the connection speaks (known once connected). */
  get era(): "legacy" | "modern" {
    return this.getProtocolEra() === "legacy" ? "legacy" : "modern";
  }

  /** The `params` of every notification of `method` received, in order. */
  notificationsOf(method: string): Record<string, unknown>[] {
    return this.notifications.filter((each) => each.method === method).map((each) => each.params ?? {});
  }

  protected override _onnotification(raw: JSONRPCNotification, extra?: MessageExtraInfo): void {
    // A client kept for a long run (a soak) keeps the latest ones only.
    if (this.notifications.length >= NOTIFICATIONS_KEPT) this.notifications.shift();
    this.notifications.push({ method: raw.method, ...(raw.params === undefined ? {} : { params: raw.params }) });
    super._onnotification(raw, extra);
  }

  /**
   * Calls a task-capable tool as a task (the tasks extension of `mcp-h3/tasks`) and returns its
   * handle: `settled()` / `result()` follow it to its end, answering its questions through the
   * `elicitation`, `sampling` and `roots` options; `cancel()` cancels it.
   */
  startTask(params: CallToolRequest["params"]): Promise<McpTestTask> {
    return startTask(this.#taskHost(), params);
  }

  /** Runs a task-capable tool as a task to its result (see {@link startTask}). */
  async runTask(params: CallToolRequest["params"]): Promise<CallToolResult> {
    return await (await this.startTask(params)).result();
  }

  /**
   * An MCP App's view as a host reads it: the tool's `_meta.ui` from `tools/list`, then its `ui://`
   * resource. Declare the apps extension (`apps: true`) when the server lists app tools only to hosts
   * that render them.
   */
  async readAppView(toolName: string): Promise<McpTestAppView> {
    const { tools } = await this.listTools(undefined, { cacheMode: "refresh" });
    const tool = tools.find((each) => each.name === toolName);
    if (!tool) throw new Error(`readAppView: no tool named ${JSON.stringify(toolName)} is listed`);
    const meta = (tool._meta ?? {}) as Record<string, unknown>;
    const toolUi = (meta.ui ?? {}) as Record<string, unknown>;
    const uri = toolUi.resourceUri ?? meta[RESOURCE_URI_META_KEY];
    if (typeof uri !== "string") throw new Error(`readAppView: the tool ${JSON.stringify(toolName)} has no view`);
    const { contents } = await this.readResource({ uri });
    const content = contents[0] as { mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> };
    const html =
      content.text ?? new TextDecoder().decode(Uint8Array.from(atob(content.blob ?? ""), (c) => c.charCodeAt(0)));
    return { uri, mimeType: content.mimeType, html, toolUi, ui: (content._meta?.ui ?? {}) as Record<string, unknown> };
  }

  /** Every skill `skills/list` lists (the skills extension, `mcp-h3/skills`), its pages followed. */
  async listSkills(): Promise<McpTestSkill[]> {
    return (await allPages(this.#skillsHost(), "skills/list", {}, "skills")) as unknown as McpTestSkill[];
  }

  /** The entry of the skill whose `SKILL.md` is at `uri` (`skills/get`), listed or not. */
  async getSkill(uri: string): Promise<McpTestSkill> {
    return (await this.#skillsHost().request("skills/get", { uri })).skill as McpTestSkill;
  }

  /**
   * Reads one file of `skill` as a skills host would: its size and SHA-256 digest must match the
   * skill's manifest (throws naming what differs); a dynamic skill's files are read unchecked.
   */
  readSkillFile(skill: McpTestSkill, uri: string): Promise<McpTestSkillFile> {
    return readSkillFile(this.#skillsHost(), skill, uri);
  }

  /** The direct children of a directory of the skill namespace (`resources/directory/read`), its pages followed. */
  async readDirectory(uri: string): Promise<McpTestDirectoryChild[]> {
    const children = await allPages(this.#skillsHost(), "resources/directory/read", { uri }, "resources");
    return children as unknown as McpTestDirectoryChild[];
  }

  #skillsHost(): SkillsHost {
    return {
      request: (method, params) =>
        this.request({ method, params } as never, ANY_RESULT as never) as Promise<Record<string, unknown>>,
      readResource: (uri) => this.readResource({ uri }) as ReturnType<SkillsHost["readResource"]>,
    };
  }

  /** Closes the client (`await using client = …` does it at the end of the scope). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The answer of the client's options to an input request; a missing option is an error the server gets. */
  async answerInput(method: string, params: unknown): Promise<unknown> {
    const { elicitation, sampling, roots } = this.#wiring.options;
    if (method === "elicitation/create" && elicitation) return await elicitation(params as never);
    if (method === "sampling/createMessage" && sampling) return await sampling(params as never);
    if (method === "roots/list" && roots) return { roots: typeof roots === "function" ? await roots() : roots };
    throw new Error(`the server asked for ${method}, and the test client has no option that answers it`);
  }

  /** The capabilities sent with a task's requests: the client's, with the tasks extension. */
  #taskCapabilities(): Record<string, unknown> {
    const capabilities = this.#capabilities as { extensions?: Record<string, unknown> };
    return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } };
  }

  #taskHost(): TaskHost {
    const era = this.era;
    const { target, options, timeout } = this.#wiring;
    const modernMeta = (): Record<string, unknown> => ({ [CLIENT_CAPABILITIES_META_KEY]: this.#taskCapabilities() });
    return {
      era,
      pollMs: this.#wiring.taskPollMs,
      request: (method, params) =>
        this.request(
          { method, params: era === "modern" ? { ...params, _meta: modernMeta() } : params } as never,
          ANY_RESULT as never,
        ) as Promise<Record<string, unknown>>,
      postCall: (params) => {
        const id = `mcp-h3-test-${++this.#nextRawId}`;
        const envelope = this._outboundMetaEnvelope() ?? {};
        const message: WireMessage = {
          id,
          method: "tools/call",
          params: { ...params, _meta: { ...envelope, ...modernMeta() } },
        };
        const headers = {
          ...options.headers,
          "mcp-protocol-version": String(envelope[PROTOCOL_VERSION_META_KEY] ?? "2026-07-28"),
          "mcp-method": "tools/call",
          "mcp-name": String(params.name),
        };
        const onNotification = (notification: WireMessage): void =>
          this._onnotification({ jsonrpc: "2.0", method: notification.method!, params: notification.params });
        return postRequest(target, headers, message, onNotification, AbortSignal.timeout(timeout));
      },
      answer: (method, params) => this.answerInput(method, params),
    };
  }
}
