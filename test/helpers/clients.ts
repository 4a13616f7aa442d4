/**
 * The real MCP clients the feature tests drive, behind one small interface so that one test body
 * runs against each: `@modelcontextprotocol/sdk` 1.x (legacy only) and `@modelcontextprotocol/client`
 * 2.x pinned to the legacy era. Each factory connects over real HTTP with the client's own
 * Streamable HTTP transport; nothing is mocked.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";

export type ClientName = "sdk-1.x" | "client-2.x-legacy";

/** What a test reads back from a tool call (the common part of both clients' result types). */
export interface ToolResult {
  content?: { type: string; text?: string }[];
  isError?: boolean;
}

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface LogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

export interface CallOptions {
  onprogress?: (progress: Progress) => void;
  signal?: AbortSignal;
  /** Client-side request timeout in ms (default {@link CALL_TIMEOUT_MS}). */
  timeout?: number;
}

/** Well under the test timeout: a call the server never answers fails fast and says so. */
export const CALL_TIMEOUT_MS = 5_000;

// Type aliases, not interfaces: only these are assignable to the clients' index-signature result types.
export type ElicitAnswer = {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean>;
};

export type SampleAnswer = {
  role: "assistant";
  content: { type: "text"; text: string };
  model: string;
  stopReason?: string;
};

/** How the client answers server→client requests and what it does with log messages. */
export interface ClientHooks {
  onLog?: (message: LogMessage) => void;
  /** Called with the uri of each `notifications/resources/updated` the client receives. */
  onResourceUpdated?: (uri: string) => void;
  /** Set: the client declares `elicitation: {}` and answers `elicitation/create` with it. */
  onElicit?: (params: { message: string; requestedSchema?: unknown }) => ElicitAnswer | Promise<ElicitAnswer>;
  /** Set: the client declares `sampling: {}` and answers `sampling/createMessage` with it. */
  onSample?: (params: { messages: unknown[]; maxTokens: number }) => SampleAnswer | Promise<SampleAnswer>;
}

/** A sampling hook that notes each request in `asked` and answers "Hi!" as `test-model`. */
export function answerHi(asked: { messages: unknown[]; maxTokens: number }[]): NonNullable<ClientHooks["onSample"]> {
  return (params) => {
    asked.push(params);
    return {
      role: "assistant",
      content: { type: "text", text: "Hi!" },
      model: "test-model",
      stopReason: "endTurn",
    };
  };
}

export interface CompleteParams {
  ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
  argument: { name: string; value: string };
  context?: { arguments: Record<string, string> };
}

/** One HTTP exchange of the client's transport, as seen on the wire. */
export interface SentRequest {
  method: string;
  /** The JSON-RPC method of a POSTed single message, when it has one. */
  rpcMethod: string | undefined;
  lastEventId: string | null;
  /** Filled in when the response headers arrive. */
  status?: number;
  contentType?: string | null;
}

/** One connected client, whichever implementation is behind it. */
export interface TestClient {
  /** Every HTTP request the transport sent, in order (to see reconnections the client does by itself). */
  readonly sent: readonly SentRequest[];
  /** What the client reported through its `onerror` callback (transport and protocol errors). */
  readonly errors: readonly string[];
  /** The `Mcp-Session-Id` the transport holds (undefined once terminated). */
  readonly sessionId: string | undefined;
  listTools(): Promise<{ tools: { name: string; description?: string; inputSchema: object }[] }>;
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolResult>;
  setLoggingLevel(level: "debug" | "info" | "warning" | "error"): Promise<unknown>;
  readResource(uri: string): Promise<{ contents: { uri: string; text?: string; mimeType?: string }[] }>;
  subscribeResource(uri: string): Promise<unknown>;
  unsubscribeResource(uri: string): Promise<unknown>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string; name: string }[] }>;
  getPrompt(
    name: string,
    args: Record<string, string>,
  ): Promise<{ messages: { role: string; content: { type: string; text?: string } }[] }>;
  complete(params: CompleteParams): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  /** DELETE of the session through the client's own transport. */
  terminateSession(): Promise<void>;
  close(): Promise<void>;
}

export interface ClientFactory {
  name: ClientName;
  /** `token`, when given, goes in every request as `Authorization: Bearer <token>` (the transport's `requestInit`). */
  connect(url: string, hooks?: ClientHooks, token?: string): Promise<TestClient>;
}

/** The transport's `requestInit` for a bearer token (none without one). */
export function bearerInit(token: string | undefined): { requestInit?: RequestInit } {
  return token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } };
}

function rpcMethodOf(body: unknown): string | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const message: unknown = JSON.parse(body);
    const method = (message as { method?: unknown } | null)?.method;
    return typeof method === "string" ? method : undefined;
  } catch {
    return undefined;
  }
}

/** A fetch that notes each exchange and passes request and response on unchanged. */
function recordingFetch(sent: SentRequest[]): typeof fetch {
  return async (input, init) => {
    const entry: SentRequest = {
      method: (init?.method ?? "GET").toUpperCase(),
      rpcMethod: rpcMethodOf(init?.body),
      lastEventId: new Headers(init?.headers).get("last-event-id"),
    };
    sent.push(entry);
    const response = await fetch(input, init);
    entry.status = response.status;
    entry.contentType = response.headers.get("content-type");
    return response;
  };
}

/** The capabilities a client declares for the hooks it was given. */
export function capabilitiesFor(hooks: ClientHooks): Record<string, object> {
  const capabilities: Record<string, object> = {};
  if (hooks.onElicit) capabilities.elicitation = {};
  if (hooks.onSample) capabilities.sampling = {};
  return capabilities;
}

/** What one connection records: the transport's HTTP exchanges (through `fetch`) and the client's errors. */
interface Recorder {
  sent: SentRequest[];
  errors: string[];
  fetch: typeof fetch;
}

/** A recorder for `client`: collects what it reports through `onerror`; its `fetch` is for the transport. */
function recorderFor(client: { onerror?: (error: Error) => void }): Recorder {
  const sent: SentRequest[] = [];
  const errors: string[] = [];
  client.onerror = (error) => void errors.push(String(error));
  return { sent, errors, fetch: recordingFetch(sent) };
}

/** The calls both SDK clients offer under the same name, as far as a {@link TestClient} reads them. */
interface SdkClient {
  listTools(): ReturnType<TestClient["listTools"]>;
  setLoggingLevel(level: "debug" | "info" | "warning" | "error"): Promise<unknown>;
  readResource(params: { uri: string }): ReturnType<TestClient["readResource"]>;
  subscribeResource(params: { uri: string }): Promise<unknown>;
  unsubscribeResource(params: { uri: string }): Promise<unknown>;
  listResourceTemplates(): ReturnType<TestClient["listResourceTemplates"]>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): ReturnType<TestClient["getPrompt"]>;
  complete(params: CompleteParams): ReturnType<TestClient["complete"]>;
  close(): Promise<void>;
}

/** A connected client and its transport as a {@link TestClient}; only `callTool` differs between the SDKs. */
function testClient(
  client: SdkClient,
  transport: { readonly sessionId: string | undefined; terminateSession(): Promise<void> },
  { sent, errors }: Recorder,
  callTool: TestClient["callTool"],
): TestClient {
  return {
    sent,
    errors,
    get sessionId() {
      return transport.sessionId;
    },
    listTools: () => client.listTools(),
    callTool,
    setLoggingLevel: (level) => client.setLoggingLevel(level),
    readResource: (uri) => client.readResource({ uri }),
    subscribeResource: (uri) => client.subscribeResource({ uri }),
    unsubscribeResource: (uri) => client.unsubscribeResource({ uri }),
    listResourceTemplates: () => client.listResourceTemplates(),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    complete: (params) => client.complete(params),
    terminateSession: () => transport.terminateSession(),
    close: () => client.close(),
  };
}

/** Lets a 2.x client answer server→client requests and log messages with the given hooks. */
export function setHooks(client: ClientV2, hooks: ClientHooks): void {
  const { onLog, onResourceUpdated, onElicit, onSample } = hooks;
  if (onLog) client.setNotificationHandler("notifications/message", (n) => onLog(n.params));
  if (onResourceUpdated) {
    client.setNotificationHandler("notifications/resources/updated", (n) => onResourceUpdated(n.params.uri));
  }
  if (onElicit) client.setRequestHandler("elicitation/create", async (request) => onElicit(request.params));
  if (onSample) client.setRequestHandler("sampling/createMessage", async (request) => onSample(request.params));
}

const sdkV1: ClientFactory = {
  name: "sdk-1.x",
  async connect(url, hooks = {}, token) {
    const client = new ClientV1({ name: "sdk-1.x-test", version: "1.0.0" }, { capabilities: capabilitiesFor(hooks) });
    const { onLog, onResourceUpdated, onElicit, onSample } = hooks;
    if (onLog) client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => onLog(n.params));
    if (onResourceUpdated) {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => onResourceUpdated(n.params.uri));
    }
    if (onElicit) client.setRequestHandler(ElicitRequestSchema, async (request) => onElicit(request.params));
    if (onSample) client.setRequestHandler(CreateMessageRequestSchema, async (request) => onSample(request.params));
    const recorder = recorderFor(client);
    const transport = new TransportV1(new URL(url), { fetch: recorder.fetch, ...bearerInit(token) });
    await client.connect(transport);
    const callTool: TestClient["callTool"] = async (name, args, options) =>
      (await client.callTool({ name, arguments: args }, undefined, {
        timeout: CALL_TIMEOUT_MS,
        ...options,
      })) as ToolResult;
    return testClient(client, transport, recorder, callTool);
  },
};

const clientV2Legacy: ClientFactory = {
  name: "client-2.x-legacy",
  async connect(url, hooks = {}, token) {
    const client = new ClientV2(
      { name: "client-2.x-test", version: "1.0.0" },
      { capabilities: capabilitiesFor(hooks), versionNegotiation: { mode: "legacy" } },
    );
    setHooks(client, hooks);
    const recorder = recorderFor(client);
    const transport = new TransportV2(new URL(url), { fetch: recorder.fetch, ...bearerInit(token) });
    await client.connect(transport);
    const callTool: TestClient["callTool"] = async (name, args, options) =>
      (await client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS, ...options })) as ToolResult;
    return testClient(client, transport, recorder, callTool);
  },
};

export const CLIENTS: ClientFactory[] = [sdkV1, clientV2Legacy];
