/**
 * Valid messages for every method of both eras, the seeds the fuzzer mutates. Legacy ones ride on a
 * session of the run's pool; modern ones carry the `_meta` envelope and the standard headers.
 */
import { chance, int, pick, type Random } from "./prng.ts";

export const MODERN = "2026-07-28";
const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const JSON_AND_SSE = "application/json, text/event-stream";

/** A legacy session the fuzzer opened. */
export interface PooledSession {
  id: string;
  version: string;
}

/** What messages may refer to: the server's sessions, genuine request states, seen event ids. */
export interface FuzzPool {
  sessions: PooledSession[];
  /** A genuine `requestState` of the `ask` tool (from a first round). */
  states: string[];
  eventIds: string[];
  /** Ids of tasks the server created (tasks extension). */
  taskIds: string[];
}

/** One HTTP request to send. */
export interface FuzzRequest {
  method: "POST" | "GET" | "DELETE";
  headers: Record<string, string>;
  /** The JSON body (POST), before mutation. */
  body?: unknown;
  /** Stream bodies that do not end by themselves (GET streams, listens): read briefly, then dropped. */
  endless?: boolean;
  /** The session the request rides on, to answer server→client requests. */
  session?: PooledSession;
}

const nextId = (random: Random): string | number =>
  chance(random, 0.5) ? int(random, 1, 1e9) : `f-${int(random, 1, 1e9)}`;

function sessionHeaders(session: PooledSession): Record<string, string> {
  const headers: Record<string, string> = { "mcp-session-id": session.id };
  if (session.version !== "2025-03-26") headers["mcp-protocol-version"] = session.version;
  return headers;
}

function legacyPost(random: Random, pool: FuzzPool, body: unknown): FuzzRequest {
  const session = pick(random, pool.sessions);
  return {
    method: "POST",
    headers: { "content-type": "application/json", accept: JSON_AND_SSE, ...sessionHeaders(session) },
    body,
    session,
  };
}

const request = (random: Random, method: string, params?: Record<string, unknown>): Record<string, unknown> =>
  params === undefined
    ? { jsonrpc: "2.0", id: nextId(random), method }
    : { jsonrpc: "2.0", id: nextId(random), method, params };

const TOOL_CALLS: ((random: Random) => Record<string, unknown>)[] = [
  (random) => ({ name: "record", arguments: { n: int(random, 0, 1000) } }),
  () => ({ name: "echo", arguments: { text: "hello" } }),
  () => ({ name: "regional", arguments: { region: "eu" } }),
  () => ({ name: "ask", arguments: {} }),
  () => ({ name: "chatty", arguments: {}, _meta: { progressToken: "p" } }),
  () => ({ name: "roots", arguments: {} }),
];

/** Legacy messages, one per method (and the session requests GET and DELETE). */
const LEGACY: ((random: Random, pool: FuzzPool) => FuzzRequest)[] = [
  (random) => ({
    method: "POST",
    headers: { "content-type": "application/json", accept: JSON_AND_SSE },
    body: request(random, "initialize", {
      protocolVersion: pick(random, ["2025-11-25", "2025-06-18", "2025-03-26"]),
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
      clientInfo: { name: "fuzz", version: "1" },
    }),
  }),
  (random, pool) => legacyPost(random, pool, { jsonrpc: "2.0", method: "notifications/initialized" }),
  (random, pool) => legacyPost(random, pool, request(random, "ping")),
  (random, pool) => legacyPost(random, pool, request(random, "tools/list")),
  (random, pool) => legacyPost(random, pool, request(random, "tools/call", pick(random, TOOL_CALLS)(random))),
  (random, pool) => legacyPost(random, pool, request(random, "resources/list")),
  (random, pool) =>
    legacyPost(random, pool, request(random, "resources/read", { uri: pick(random, ["docs://readme", "items://7"]) })),
  (random, pool) => legacyPost(random, pool, request(random, "resources/templates/list")),
  (random, pool) => legacyPost(random, pool, request(random, "resources/subscribe", { uri: "docs://readme" })),
  (random, pool) => legacyPost(random, pool, request(random, "resources/unsubscribe", { uri: "docs://readme" })),
  (random, pool) => legacyPost(random, pool, request(random, "prompts/list")),
  (random, pool) =>
    legacyPost(random, pool, request(random, "prompts/get", { name: "greet", arguments: { name: "bob" } })),
  (random, pool) =>
    legacyPost(
      random,
      pool,
      request(random, "completion/complete", {
        ref: { type: "ref/resource", uri: "items://{id}" },
        argument: { name: "id", value: "1" },
      }),
    ),
  (random, pool) =>
    legacyPost(random, pool, request(random, "logging/setLevel", { level: pick(random, ["debug", "info", "error"]) })),
  (random, pool) =>
    legacyPost(random, pool, {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: int(random, 1, 100), reason: "fuzz" },
    }),
  // A response to a server→client request nobody made (the genuine ones are answered in-flow).
  (random, pool) =>
    legacyPost(random, pool, {
      jsonrpc: "2.0",
      id: `srv-${int(random, 0, 99)}`,
      result: { action: "accept", content: { name: "x" } },
    }),
  (random, pool) => {
    const session = pick(random, pool.sessions);
    const headers: Record<string, string> = { accept: "text/event-stream", ...sessionHeaders(session) };
    if (pool.eventIds.length > 0 && chance(random, 0.5)) headers["last-event-id"] = pick(random, pool.eventIds);
    return { method: "GET", headers, endless: true, session };
  },
  () => ({
    method: "DELETE",
    headers: { "mcp-session-id": crypto.randomUUID(), "mcp-protocol-version": "2025-11-25" },
  }),
  (random, pool) => {
    const session =
      pool.sessions.find((candidate) => candidate.version === "2025-03-26") ?? pick(random, pool.sessions);
    const batch = [
      request(random, "ping"),
      request(random, "tools/list"),
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ];
    return {
      method: "POST",
      headers: { "content-type": "application/json", accept: JSON_AND_SSE, ...sessionHeaders(session) },
      body: batch,
      session,
    };
  },
];

/** The task methods of the modern wire, whose `Mcp-Name` is the task id. */
const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);
const TASKS = "io.modelcontextprotocol/tasks";

/** The standard headers of a modern message. */
export function modernHeaders(message: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: JSON_AND_SSE,
    "mcp-protocol-version": MODERN,
    "mcp-method": String(message.method),
  };
  const params = (message.params ?? {}) as Record<string, unknown>;
  const name =
    message.method === "resources/read"
      ? params.uri
      : message.method === "tools/call" || message.method === "prompts/get"
        ? params.name
        : TASK_METHODS.has(String(message.method))
          ? params.taskId
          : undefined;
  if (typeof name === "string") headers["mcp-name"] = name;
  if (message.method === "tools/call" && params.name === "regional") headers["mcp-param-region"] = "eu";
  return headers;
}

function modernPost(
  random: Random,
  method: string,
  params: Record<string, unknown> = {},
  endless = false,
  tasks = false,
): FuzzRequest {
  const capabilities = { elicitation: {}, sampling: {}, roots: {}, ...(tasks ? { extensions: { [TASKS]: {} } } : {}) };
  const meta = {
    [META_PROTOCOL_VERSION]: MODERN,
    [META_CLIENT_CAPABILITIES]: capabilities,
  };
  const body = request(random, method, { ...params, _meta: { ...(params._meta as object), ...meta } });
  return { method: "POST", headers: modernHeaders(body), body, endless };
}

/** A task id the server made (most of the time), else one it never made. */
function someTaskId(random: Random, pool: FuzzPool): string {
  return pool.taskIds.length > 0 && chance(random, 0.8) ? pick(random, pool.taskIds) : "no-such-task";
}

/** The task methods of the modern wire: calls that become tasks, and the methods about them. */
const TASK_MESSAGES: ((random: Random, pool: FuzzPool) => FuzzRequest)[] = [
  (random) =>
    modernPost(random, "tools/call", { name: pick(random, ["task_job", "task_ask"]), arguments: {} }, false, true),
  (random, pool) => modernPost(random, "tasks/get", { taskId: someTaskId(random, pool) }, false, true),
  (random, pool) =>
    modernPost(
      random,
      "tasks/update",
      { taskId: someTaskId(random, pool), inputResponses: { name: { action: "accept", content: { name: "fuzz" } } } },
      false,
      true,
    ),
  (random, pool) => modernPost(random, "tasks/cancel", { taskId: someTaskId(random, pool) }, false, true),
  (random, pool) =>
    modernPost(random, pick(random, ["tasks/list", "tasks/result"]), { taskId: someTaskId(random, pool) }, false, true),
];

/** Modern messages: discover, the lists, calls (with MRTR retries), prompts, reads, completions, listens, tasks. */
const MODERN_MESSAGES: ((random: Random, pool: FuzzPool) => FuzzRequest)[] = [
  (random) => modernPost(random, "server/discover"),
  (random) =>
    modernPost(random, pick(random, ["tools/list", "resources/list", "resources/templates/list", "prompts/list"])),
  (random) => modernPost(random, "tools/call", pick(random, TOOL_CALLS)(random)),
  (random, pool) =>
    modernPost(random, "tools/call", {
      name: "ask",
      arguments: {},
      inputResponses: { name: { action: "accept", content: { name: "fuzz" } } },
      ...(pool.states.length > 0 && chance(random, 0.7) ? { requestState: pick(random, pool.states) } : {}),
    }),
  (random) => modernPost(random, "prompts/get", { name: "greet", arguments: { name: "bob" } }),
  (random) => modernPost(random, "resources/read", { uri: pick(random, ["docs://readme", "items://3"]) }),
  (random) =>
    modernPost(random, "completion/complete", {
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "name", value: "b" },
    }),
  (random) =>
    modernPost(
      random,
      "subscriptions/listen",
      { notifications: { toolsListChanged: true, resourceSubscriptions: ["docs://readme"] } },
      true,
    ),
  ...TASK_MESSAGES,
];

/** A valid request for a random method of a random era. */
export function validRequest(random: Random, pool: FuzzPool): FuzzRequest {
  const list = chance(random, 0.5) ? LEGACY : MODERN_MESSAGES;
  return pick(random, list)(random, pool);
}
