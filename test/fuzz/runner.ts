/**
 * The fuzzer: `count` mutated messages of both eras, six at a time, alternating between an h3 v2 and
 * an h3 v1 server in this process (with auth on, each carrying a bearer token, sometimes mutated). A run fails on a 5xx, a reply that is not valid JSON-RPC or SSE, a
 * request with no answer within `timeoutMs`, an unhandled rejection or uncaught exception, or a heap
 * that does not come back to its baseline once the run's sessions are deleted.
 */
import { collectGarbage } from "../helpers/gc.ts";
import { checkJsonBody, isJsonRpcMessage, takeSseEvents } from "./check.ts";
import { MODERN, modernHeaders, validRequest, type FuzzPool, type PooledSession } from "./messages.ts";
import { mutate, type Mutated } from "./mutate.ts";
import { chance, pick, randomFor } from "./prng.ts";
import { startFuzzServers, type FuzzServer } from "./servers.ts";
import { FUZZ_AUTH, authHeaders } from "./auth.ts";

export interface FuzzOptions {
  count: number;
  seed: number;
  concurrency?: number;
  /** A request not answered (to its end, for a finite stream) within this is a hang. */
  timeoutMs?: number;
  /** The run stops taking new messages after this many failures (a broken build fails fast). */
  maxFailures?: number;
  /** Called every 1,000 messages with a progress line. */
  onProgress?: (line: string) => void;
  /**
   * Auth on: the servers validate bearer tokens, every message carries the run's token, and some
   * get their `Authorization` header mutated (see `auth.ts`).
   */
  auth?: boolean;
}

export interface FuzzFailure {
  /** The message index (-1: the process, not one message). */
  index: number;
  server: string;
  kind: string;
  detail: string;
  applied: string[];
}

export interface FuzzReport {
  seed: number;
  messages: number;
  byClass: Record<string, number>;
  failures: FuzzFailure[];
  heapBaselineMb: number;
  heapFinalMb: number;
  /** Answers 401 (an auth run's missing, malformed, unknown or expired tokens). */
  unauthorized: number;
  /** The closing line: counts by status class and failures. */
  closing: string;
}

/** A window in which an endless stream (GET, listen) is read before the fuzzer drops it. */
const ENDLESS_READ_MS = 40;
const MB = 1024 * 1024;

async function settledHeap(gc: () => void): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return process.memoryUsage().heapUsed;
}

interface Target {
  server: FuzzServer;
  pool: FuzzPool;
  /** Every session id this run made, deleted at the end with the `Authorization` it was opened with. */
  created: Map<string, Record<string, string>>;
  /** What every request of the run carries: the token with auth on, else nothing. */
  auth: Record<string, string>;
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
}

/** Opens the run's pool on one server: a session per legacy revision, a genuine requestState, some event ids. */
async function openPool(
  server: FuzzServer,
  created: Map<string, Record<string, string>>,
  auth: Record<string, string>,
): Promise<FuzzPool> {
  const pool: FuzzPool = { sessions: [], states: [], eventIds: [], taskIds: [] };
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream", ...auth };
  for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
    const init = await post(server.url, base, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: version,
        capabilities: { elicitation: {}, sampling: {}, roots: {} },
        clientInfo: { name: "fuzz", version: "1" },
      },
    });
    await init.text();
    const id = init.headers.get("mcp-session-id")!;
    created.set(id, auth);
    const headers: Record<string, string> = { ...base, "mcp-session-id": id };
    if (version !== "2025-03-26") headers["mcp-protocol-version"] = version;
    await (await post(server.url, headers, { jsonrpc: "2.0", method: "notifications/initialized" })).text();
    pool.sessions.push({ id, version });
  }
  const ask = {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: {
      name: "ask",
      arguments: {},
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      },
    },
  };
  const first = (await (await post(server.url, { ...modernHeaders(ask), ...auth }, ask)).json()) as {
    result?: { requestState?: string };
  };
  if (first.result?.requestState) pool.states.push(first.result.requestState);
  return pool;
}

/** The answer a client gives to a server→client request; sometimes a wrong one. */
function answerTo(random: () => number, method: string): Record<string, unknown> {
  if (chance(random, 0.2))
    return pick(random, [{ error: { code: -1, message: "no" } }, { result: { junk: true } }, { result: {} }]);
  if (method === "elicitation/create") return { result: { action: "accept", content: { name: "fuzz" } } };
  if (method === "sampling/createMessage")
    return { result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } };
  return { result: { roots: [] } };
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const { count, seed, concurrency = 6, timeoutMs = 10_000, maxFailures = 50 } = options;
  let sent = 0;
  const failures: FuzzFailure[] = [];
  const byClass: Record<string, number> = { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, "no answer": 0 };
  const counts = { unauthorized: 0 };
  const onRejection = (reason: unknown): void =>
    void failures.push({
      index: -1,
      server: "process",
      kind: "unhandledRejection",
      detail: String((reason as Error)?.stack ?? reason).slice(0, 400),
      applied: [],
    });
  const onException = (error: unknown): void =>
    void failures.push({
      index: -1,
      server: "process",
      kind: "uncaughtException",
      detail: String((error as Error)?.stack ?? error).slice(0, 400),
      applied: [],
    });
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  const gc = collectGarbage;
  const servers = await startFuzzServers(options.auth ? FUZZ_AUTH : undefined);
  const auth = authHeaders(options.auth === true);
  const targets: Target[] = [];
  for (const server of servers) {
    const created = new Map<string, Record<string, string>>();
    targets.push({ server, created, auth, pool: await openPool(server, created, auth) });
  }

  const one = async (index: number): Promise<void> => {
    const target = targets[index % targets.length]!;
    const random = randomFor(seed, index);
    let request: ReturnType<typeof validRequest>;
    let mutated: Mutated;
    try {
      request = validRequest(random, target.pool);
      Object.assign(request.headers, target.auth);
      mutated = mutate(random, request, target.pool);
    } catch (error) {
      failures.push({ index, server: target.server.name, kind: "fuzzer", detail: String(error), applied: [] });
      return;
    }
    const fail = (kind: string, detail: string): void =>
      void failures.push({
        index,
        server: target.server.name,
        kind,
        detail: detail.slice(0, 400),
        applied: mutated.applied,
      });
    // A hard deadline on top of the request's own: whatever the exchange waits for, the run moves on.
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<void>((resolve) => {
      deadline = setTimeout(() => {
        fail("hang", `${mutated.method} not settled within ${timeoutMs + 2000} ms`);
        resolve();
      }, timeoutMs + 2000);
    });
    const exchanged = exchange(target, mutated, request.session, random, timeoutMs, byClass, counts, fail);
    await Promise.race([exchanged, stuck]);
    clearTimeout(deadline);
  };

  // A warm-up (a tenth of the run) before the baseline, so that code and caches are in place.
  const warmUp = Math.min(Math.floor(count / 10), 1000);
  let next = 0;
  const work = async (end: number): Promise<void> => {
    const worker = async (): Promise<void> => {
      for (let index = next++; index < end && failures.length < maxFailures; index = next++) {
        sent++;
        if (sent % 1000 === 0) options.onProgress?.(`fuzz: ${sent}/${count} sent, ${failures.length} failures`);
        await one(index);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    next = end;
  };
  await work(warmUp);
  const baseline = await settledHeap(gc);
  await work(count);

  // Release everything the run opened; what is left must be what was there before.
  for (const target of targets) {
    for (const [sessionId, auth] of target.created) {
      const response = await fetch(target.server.url, {
        method: "DELETE",
        headers: { "mcp-session-id": sessionId, ...auth },
        signal: AbortSignal.timeout(timeoutMs),
      }).catch(() => undefined);
      await response?.text().catch(() => {});
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const final = await settledHeap(gc);
  if (final > baseline * 1.2 + 8 * MB) {
    failures.push({
      index: -1,
      server: "process",
      kind: "memory",
      detail: `heap did not come back: ${(baseline / MB).toFixed(1)} MB before, ${(final / MB).toFixed(1)} MB after`,
      applied: [],
    });
  }
  for (const server of servers) await server.close();
  process.off("unhandledRejection", onRejection);
  process.off("uncaughtException", onException);
  const classes = Object.entries(byClass)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ");
  const stopped = sent < count ? ` (stopped after ${maxFailures} failures)` : "";
  const unauthorized = options.auth ? ` 401=${counts.unauthorized}` : "";
  const closing = `fuzz: seed=${seed}${options.auth ? " auth=on" : ""} messages=${sent}${stopped} ${classes}${unauthorized} failures=${failures.length} heap=${(baseline / MB).toFixed(1)}→${(final / MB).toFixed(1)} MB`;
  return {
    seed,
    messages: sent,
    byClass,
    failures,
    heapBaselineMb: baseline / MB,
    heapFinalMb: final / MB,
    unauthorized: counts.unauthorized,
    closing,
  };
}

/** Sends one mutated request and judges the reply. */
async function exchange(
  target: Target,
  mutated: Mutated,
  session: PooledSession | undefined,
  random: () => number,
  timeoutMs: number,
  byClass: Record<string, number>,
  counts: { unauthorized: number },
  fail: (kind: string, detail: string) => void,
): Promise<void> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    let response: Response;
    try {
      response = await fetch(target.server.url, {
        method: mutated.method,
        headers: mutated.headers,
        body: mutated.method === "POST" ? mutated.text : undefined,
        signal: controller.signal,
      });
    } catch (error) {
      // fetch refusing a header value of ours is not the server's doing.
      if (error instanceof TypeError && /header/i.test(String(error.message))) return;
      byClass["no answer"]!++;
      fail(timedOut ? "hang" : "no answer", `${mutated.method}: ${String((error as Error).cause ?? error)}`);
      return;
    }
    const status = response.status;
    byClass[`${Math.floor(status / 100)}xx`] = (byClass[`${Math.floor(status / 100)}xx`] ?? 0) + 1;
    if (status >= 500) fail("5xx", `${status}`);
    if (status === 401) counts.unauthorized++;
    const sessionId = response.headers.get("mcp-session-id");
    if (sessionId && mutated.text?.includes('"initialize"')) {
      const opener = mutated.headers.authorization;
      target.created.set(sessionId, opener === undefined ? {} : { authorization: opener });
      if (chance(random, 0.1) && target.pool.sessions.length > 0) {
        target.pool.sessions[Math.floor(random() * target.pool.sessions.length)] = {
          id: sessionId,
          version: "2025-11-25",
        };
      }
    }
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream")) {
      await readStream(target, response, mutated, session, random, controller, fail);
      return;
    }
    const text = await response.text();
    if (text === "") {
      // An empty 431 is Node's HTTP parser refusing a header block over its 16 KB limit (a few huge
      // mutated headers together, a huge token among them): no handler ever saw the request.
      const parserRefused = status === 431;
      if (status !== 202 && status !== 204 && !(status === 200 && mutated.method === "DELETE") && !parserRefused)
        fail("empty body", `${status}`);
      return;
    }
    if (!type.includes("application/json")) {
      fail("content-type", `${status} ${type}: ${text.slice(0, 100)}`);
      return;
    }
    const problem = checkJsonBody(text);
    if (problem) fail("invalid JSON-RPC", `${status} ${problem}`);
    const state = /"requestState":"([^"]{1,4000})"/.exec(text)?.[1];
    if (state && target.pool.states.length < 20) target.pool.states.push(state);
    const taskId = /"resultType":"task","taskId":"([A-Za-z0-9_-]{24})"/.exec(text)?.[1];
    if (taskId && target.pool.taskIds.length < 20) target.pool.taskIds.push(taskId);
  } catch (error) {
    byClass["no answer"]!++;
    fail(timedOut ? "hang" : "broken reply", String((error as Error).cause ?? error));
  } finally {
    clearTimeout(timer);
  }
}

async function readStream(
  target: Target,
  response: Response,
  mutated: Mutated,
  session: PooledSession | undefined,
  random: () => number,
  controller: AbortController,
  fail: (kind: string, detail: string) => void,
): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const stopAt = mutated.endless ? Date.now() + ENDLESS_READ_MS : Infinity;
  let endlessTimer: ReturnType<typeof setTimeout> | undefined;
  if (mutated.endless) endlessTimer = setTimeout(() => void reader.cancel().catch(() => {}), ENDLESS_READ_MS);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const taken = takeSseEvents(buffer);
      buffer = taken.rest;
      if (taken.problem) fail("invalid SSE", taken.problem);
      for (const event of taken.events) {
        if (event.id !== undefined && target.pool.eventIds.length < 50) target.pool.eventIds.push(event.id);
        if (event.data === "") continue;
        let message: unknown;
        try {
          message = JSON.parse(event.data);
        } catch {
          fail("invalid SSE", `data is not JSON: ${event.data.slice(0, 100)}`);
          continue;
        }
        if (!isJsonRpcMessage(message)) fail("invalid SSE", `not a JSON-RPC message: ${event.data.slice(0, 100)}`);
        const request = message as { id?: unknown; method?: unknown };
        if (session && typeof request.method === "string" && request.id !== undefined) {
          const headers: Record<string, string> = {
            "content-type": "application/json",
            "mcp-session-id": session.id,
            ...target.auth,
          };
          if (session.version !== "2025-03-26") headers["mcp-protocol-version"] = session.version;
          const answer = { jsonrpc: "2.0", id: request.id, ...answerTo(random, request.method) };
          const posted = await fetch(target.server.url, {
            method: "POST",
            headers,
            body: JSON.stringify(answer),
            signal: controller.signal,
          });
          await posted.text();
          if (posted.status >= 500) fail("5xx", `answer to ${request.method}: ${posted.status}`);
        }
      }
      if (Date.now() > stopAt) break;
    }
  } catch (error) {
    if (!mutated.endless) throw error;
  } finally {
    if (endlessTimer) clearTimeout(endlessTimer);
    if (mutated.endless) {
      controller.abort();
      void reader.cancel().catch(() => {});
    }
  }
}

/** The first failures, one line each, with what reproduces them. */
export function describeFailures(report: FuzzReport, max = 20): string {
  return report.failures
    .slice(0, max)
    .map(
      (failure) =>
        `seed ${report.seed} index ${failure.index} [${failure.server}] ${failure.kind}: ${failure.detail} (${failure.applied.join(", ")})`,
    )
    .join("\n");
}
