/**
 * The request bodies and headers every system gets, byte for byte the same. Modern: the
 * 2026-07-28 `_meta` envelope plus the standard headers (MCP-Protocol-Version, Mcp-Method,
 * Mcp-Name). Legacy: a 2025-11-25 session opened with initialize + notifications/initialized,
 * then tools/call with Mcp-Session-Id (when the system hands one out).
 */
export const MODERN_VERSION = "2026-07-28";
export const LEGACY_VERSION = "2025-11-25";
export const ORIGIN = "http://localhost";
export const ECHO_TEXT = "hello from the bench";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
  "io.modelcontextprotocol/clientInfo": { name: "mcp-h3-bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

const ACCEPT = "application/json, text/event-stream";
// In-process Requests carry the Host header a real HTTP request always has (some systems check it).
const HOST = "localhost";

/** The bearer token every modern request carries: systems without auth ignore it; mcp-h3-auth checks it. */
export const BENCH_TOKEN = "bench-token";

/** A body builder: fixed JSON around an incrementing id (ids differ so concurrent calls never collide). */
function template(message) {
  const json = JSON.stringify({ ...message, id: 0 });
  const [before, after] = json.split('"id":0');
  return (id) => `${before}"id":${id}${after}`;
}

export const modernEchoBody = template({
  jsonrpc: "2.0",
  method: "tools/call",
  params: { name: "echo", arguments: { text: ECHO_TEXT }, _meta: ENVELOPE },
});

export const legacyEchoBody = template({
  jsonrpc: "2.0",
  method: "tools/call",
  params: { name: "echo", arguments: { text: ECHO_TEXT } },
});

/** What the `ask` tool (mcp-h3 only: the MRTR scenario) answers once its one elicitation is answered. */
export const MRTR_ANSWER = "confirmed true";

const ASK_ENVELOPE = { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
const ASK_RESPONSES = { confirm: { action: "accept", content: { ok: true } } };

/** A modern call of `ask`: the first round without `requestState`, the retry with it and the answer. */
export function modernAskBody(id, requestState) {
  const params = { name: "ask", arguments: {}, _meta: ASK_ENVELOPE };
  if (requestState !== undefined) Object.assign(params, { requestState, inputResponses: ASK_RESPONSES });
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
}

export function modernProgressBody(id, count, progressToken = "p1") {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "progress", arguments: { count }, _meta: { ...ENVELOPE, progressToken } },
  });
}

export function modernHeaders(method = "tools/call", name = "echo") {
  return {
    host: HOST,
    "content-type": "application/json",
    accept: ACCEPT,
    "mcp-protocol-version": MODERN_VERSION,
    "mcp-method": method,
    "mcp-name": name,
    authorization: `Bearer ${BENCH_TOKEN}`,
  };
}

export function legacyHeaders(sessionId) {
  const headers = {
    host: HOST,
    "content-type": "application/json",
    accept: ACCEPT,
    "mcp-protocol-version": LEGACY_VERSION,
  };
  if (sessionId) headers["mcp-session-id"] = sessionId;
  return headers;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: "mcp-h3-bench", version: "1.0.0" } },
});
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

/**
 * Opens a legacy session through `fetch(Request)`: initialize, then notifications/initialized.
 * Returns the session id, or undefined for systems that answer statelessly (no Mcp-Session-Id).
 */
export async function openLegacySession(fetchRequest, url) {
  const init = await fetchRequest(
    new Request(url, {
      method: "POST",
      headers: { host: HOST, "content-type": "application/json", accept: ACCEPT },
      body: INITIALIZE,
    }),
  );
  const text = await init.text();
  if (init.status !== 200 || !text.includes('"protocolVersion"')) {
    throw new Error(`initialize failed: ${init.status} ${text.slice(0, 300)}`);
  }
  const sessionId = init.headers.get("mcp-session-id") ?? undefined;
  const ack = await fetchRequest(
    new Request(url, { method: "POST", headers: legacyHeaders(sessionId), body: INITIALIZED }),
  );
  await ack.arrayBuffer();
  if (ack.status >= 300) throw new Error(`notifications/initialized failed: ${ack.status}`);
  return sessionId;
}

export async function closeLegacySession(fetchRequest, url, sessionId) {
  const response = await fetchRequest(new Request(url, { method: "DELETE", headers: legacyHeaders(sessionId) }));
  await response.arrayBuffer();
  return response.status;
}

/** Whether a response body (JSON or SSE) is a successful echo answer. */
export function isEchoAnswer(text) {
  return text.includes(ECHO_TEXT) && !text.includes('"error"') && !text.includes('"isError":true');
}

/** Throws unless `text` (JSON or SSE) is a successful echo answer. */
export function assertEcho(status, text, what) {
  if (status !== 200 || !isEchoAnswer(text)) {
    throw new Error(`${what}: unexpected answer ${status}: ${text.slice(0, 400)}`);
  }
}

/** The tasks extension (SEP-2663), declared in the request's `_meta` client capabilities. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const TASKS_ENVELOPE = {
  ...ENVELOPE,
  "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } },
};

/** A modern call of `echo_task` (mcp-h3-tasks only) by a client using the tasks extension: answered with a task. */
export const modernEchoTaskBody = template({
  jsonrpc: "2.0",
  method: "tools/call",
  params: { name: "echo_task", arguments: { text: ECHO_TEXT }, _meta: TASKS_ENVELOPE },
});

/**
 * The body builder (by request id) of a modern `tasks/get` of `taskId`; its headers are
 * `modernHeaders("tasks/get", taskId)` (Mcp-Name = the task id).
 */
export function modernTaskGetBody(taskId) {
  return template({ jsonrpc: "2.0", method: "tasks/get", params: { taskId, _meta: TASKS_ENVELOPE } });
}

const TASK_ID = /"taskId":"([A-Za-z0-9_-]{1,128})"/;
const TASK_STATUS = /"status":"([a-z_]+)"/;

/**
 * What a task answer (a `CreateTaskResult` or a `tasks/get`) said: the task's id, its status and
 * whether it is the finished echo (`completed`, the echo's text inline, no error). Undefined when the
 * body is no task. Read from the text as the plain calls' check reads theirs (no JSON.parse, which
 * would charge the task loads for client work the plain load does not do); the server writes JSON
 * without spaces, and the task's own fields come before its result.
 */
export function readTaskAnswer(status, text) {
  if (status !== 200 || text.includes('"error"')) return undefined;
  const taskId = TASK_ID.exec(text)?.[1];
  const taskStatus = TASK_STATUS.exec(text)?.[1];
  if (taskId === undefined || taskStatus === undefined) return undefined;
  return { taskId, status: taskStatus, echoed: taskStatus === "completed" && isEchoAnswer(text) };
}
