/**
 * The public contracts of `mcp-h3/testing`: what a test client connects to, its options, and the
 * handle of a tool run as a task. The client itself is the official 2.x client
 * (`@modelcontextprotocol/client`, an optional peer of this entry), whose types these name.
 */
import type {
  CallToolResult,
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  Implementation,
  ProtocolError,
  Root,
} from "@modelcontextprotocol/client";

/**
 * What a test client talks to: a handler from `defineMcpHandler` or `defineMcpFetchHandler`, an h3
 * app (v2, or v1 with h3 v1 installed), anything with `fetch(Request)`, a `(Request) => Response`
 * function (all in process, no port), or the URL of a running server.
 */
export type McpTestTarget =
  | { fetch(request: Request): Response | Promise<Response> }
  | ((request: Request) => Response | Promise<Response>)
  | { handler: unknown; stack: unknown[] }
  | string
  | URL;

/**
 * Which protocol era the client speaks: `"legacy"` (an `initialize` handshake and a session,
 * 2025-11-25), `"modern"` (stateless, pinned to 2026-07-28), or `"auto"` (probe with
 * `server/discover`, fall back to legacy).
 */
export type McpTestEra = "legacy" | "modern" | "auto";

/** Answers the server's elicitation requests (a legacy server→client request, or a modern input request). */
export type McpTestElicitation = (params: ElicitRequest["params"]) => ElicitResult | Promise<ElicitResult>;

/** Answers the server's sampling requests, in either era. */
export type McpTestSampling = (
  params: CreateMessageRequest["params"],
) => CreateMessageResult | Promise<CreateMessageResult>;

/** Options of `createMcpTestClient`. */
export interface McpTestClientOptions {
  /** The era to speak (default `"modern"`). */
  era?: McpTestEra;
  /** Headers on every request, e.g. `{ authorization: "Bearer …" }`. */
  headers?: Record<string, string>;
  /**
   * Capabilities declared on top of those the answer options imply (`elicitation`, `sampling`,
   * `roots`), e.g. `{ elicitation: { url: {} } }`.
   */
  capabilities?: ClientCapabilities;
  /** Answers `elicitation/create`; declares the `elicitation` capability. */
  elicitation?: McpTestElicitation;
  /** Answers `sampling/createMessage`; declares the `sampling` capability. */
  sampling?: McpTestSampling;
  /** Answers `roots/list` with these roots (or what the function gives); declares `roots`. */
  roots?: Root[] | (() => Root[] | Promise<Root[]>);
  /** Declares the MCP Apps extension (`io.modelcontextprotocol/ui`), as a host that renders views does. */
  apps?: boolean;
  /** Where an h3 app mounts the MCP handler (default `/mcp`); ignored for a URL. */
  path?: string;
  /**
   * Timeout of each request in ms (default 10,000), connecting included: a call the server never
   * answers fails with the SDK's timeout error instead of hanging the test.
   */
  timeout?: number;
  /** How often a task is polled, in ms (default 20; the server's `pollIntervalMs` is for real hosts). */
  taskPollMs?: number;
  /** The client's name and version (default `mcp-h3-test-client`). */
  clientInfo?: Implementation;
}

/** The status a task reached last; see {@link McpTestTask}. */
export type McpTestTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** How a task ended. */
export type McpTestTaskOutcome =
  | { status: "completed"; result: CallToolResult }
  | { status: "failed"; error: ProtocolError }
  | { status: "cancelled" };

/** A tool call running as a task (the tasks extension of `mcp-h3/tasks`), in either era. */
export interface McpTestTask {
  /** The task's id (undefined when the server answered the call directly, without a task). */
  readonly taskId: string | undefined;
  /** Every status seen so far, in order, each change once. */
  readonly statuses: readonly McpTestTaskStatus[];
  /**
   * Follows the task to its end, answering its input requests through the client's `elicitation`,
   * `sampling` and `roots` options. Never rejects for the task's own outcome.
   */
  settled(): Promise<McpTestTaskOutcome>;
  /** The tool's result; rejects with the server's `ProtocolError` when the task failed or was cancelled. */
  result(): Promise<CallToolResult>;
  /** Asks the server to cancel the task (`tasks/cancel`); the handler's signal fires. */
  cancel(): Promise<void>;
}

/** An MCP App's view as a host reads it: the tool's `_meta.ui`, and the `ui://` resource with its own. */
export interface McpTestAppView {
  /** The view's `ui://` URI. */
  uri: string;
  mimeType: string | undefined;
  /** The view's HTML (decoded when it came as a blob). */
  html: string;
  /** The tool's `_meta.ui` (`resourceUri`, `visibility`). */
  toolUi: Record<string, unknown>;
  /** The content's `_meta.ui` (`csp`, `permissions`, `domain`, `prefersBorder`), or `{}`. */
  ui: Record<string, unknown>;
}

/** A skill's entry as `skills/list` and `skills/get` give it (SEP-2640). */
export interface McpTestSkill {
  /** The URI of its `SKILL.md`. */
  uri: string;
  /** Its `SKILL.md` frontmatter as written. */
  frontmatter: { name: string; description: string; [field: string]: unknown };
  /** Its files with their digests and sizes, or `"dynamic"`. */
  resources: { uri: string; digest: string; size: number }[] | "dynamic";
}

/** A skill's file as `readSkillFile` read it, its size and digest checked against the manifest. */
export interface McpTestSkillFile {
  uri: string;
  mimeType: string | undefined;
  /** Its bytes (a text's UTF-8, a blob's decoded). */
  bytes: Uint8Array;
  /** Its text, when it came as text. */
  text: string | undefined;
}

/** A child of a directory, as `resources/directory/read` lists it. */
export interface McpTestDirectoryChild {
  uri: string;
  name: string;
  /** `inode/directory` for a folder. */
  mimeType?: string;
  size?: number;
}
