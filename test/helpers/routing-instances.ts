/**
 * Two (or more) mcp-h3 instances on one Redis or one Redis Cluster for the routing tests: each its
 * own handler, its own Redis connection and its own HTTP server, sharing the keys of one prefix, with tools that tell
 * another session, ask the client, and wait to be cancelled. Raw HTTP helpers pick the instance.
 */
import { z } from "zod";
import { defineMcpHandler, defineTool } from "../../src/index.ts";
import type { McpEventHandler } from "../../src/handler-types.ts";
import {
  RedisBus,
  RedisConnection,
  RedisEventStore,
  RedisSessionStore,
  type RedisConnectionOptions,
} from "../../src/_entries/redis.ts";
import { sessionRouting } from "../../src/_entries/shared.ts";
import { deferred, type Deferred } from "./deferred.ts";
import { startHost, type HostName, type RunningHost } from "./hosts.ts";
import { liveSse, type LiveSse } from "./live-sse.ts";
import { POST_HEADERS, post, type Answer } from "./rpc.ts";

export const VERSION = "2025-11-25";

export interface Instance {
  name: string;
  handler: McpEventHandler;
  server: RunningHost;
  url: string;
  connection: RedisConnection;
  /** The event store's connection: `connection`, unless `eventsRedisUrl` gave it one of its own. */
  eventsConnection: RedisConnection;
  /** Resolves with the abort reason of the (first) `wait` call running here. */
  waitAborted: Deferred<unknown>;
  /** Resolves when a `wait` call started here. */
  waitStarted: Deferred;
  /** The session data as this instance's store has it. */
  sessionData(id: string): Promise<{ streamInstance?: string } | undefined>;
  /** Every message this instance published on the bus, in order. */
  published: Record<string, unknown>[];
  /** When set, each publish waits for it first (to hold a message back). */
  beforePublish?: (message: Record<string, unknown>) => Promise<void>;
  /** Released by the test: a `steps` call with `hold` waits for it between its two halves. */
  stepsGate: Deferred;
  /** Stops serving and closes the handler and the connection (the instance dies). */
  stop(): Promise<void>;
  /**
   * Dies as seen from the others: cut off the bus both ways and no longer served, without a word
   * (its handler closes with `stop`, at the end of the test; a call held at `stepsGate` keeps nothing more).
   */
  kill(): Promise<void>;
}

export interface InstanceOptions {
  sessionTtlMs?: number;
  /** The `retry:` of priming events: how soon clients reconnect a dropped stream. */
  retryMs?: number;
  /** How often idle streams get a keep-alive (and a followed stream checks on its call's instance). */
  keepAliveMs?: number;
  /**
   * The event store on a connection of its own to this URL (a relay the test can cut, see
   * `tcp-cut.ts`), with the same prefix; the session store and the bus keep the direct one. One
   * Redis only: a relay stands in front of one node.
   */
  eventsRedisUrl?: string;
}

/** One instance named `name` on the keys of `prefix`. */
export async function startInstance(
  host: HostName,
  /** The Redis: the connection options for a prefix (a target's `options`, redis-target.ts). */
  redis: (prefix: string) => RedisConnectionOptions,
  prefix: string,
  name: string,
  options: InstanceOptions = {},
): Promise<Instance> {
  const connection = new RedisConnection(redis(prefix));
  const store = new RedisSessionStore({ connection, ttlMs: options.sessionTtlMs });
  const waitAborted = deferred<unknown>();
  const waitStarted = deferred();
  const stepsGate = deferred();
  const bus = new RedisBus({ connection });
  const eventsConnection = options.eventsRedisUrl
    ? new RedisConnection({ url: options.eventsRedisUrl, prefix })
    : connection;
  let severed = false;
  const published: Record<string, unknown>[] = [];
  // The real bus, with what this instance publishes recorded (and held back when a test asks).
  const recordedBus = {
    subscribe: (channel: string, listener: (message: unknown) => void) =>
      bus.subscribe(channel, (message) => {
        if (!severed) listener(message);
      }),
    publish: async (channel: string, message: unknown) => {
      if (severed) return;
      published.push(message as Record<string, unknown>);
      await instance.beforePublish?.(message as Record<string, unknown>);
      await bus.publish(channel, message);
    },
  };
  const handler = defineMcpHandler({
    name,
    version: "1.0.0",
    retryMs: options.retryMs,
    keepAliveMs: options.keepAliveMs,
    sessions: { store },
    events: new RedisEventStore({ connection: eventsConnection }),
    bus: recordedBus,
    // A bus of one's own (the recording wrapper) brings no extension: the routing comes from the options.
    extensions: [sessionRouting],
    tools: [
      defineTool({ name: "where", description: "Names the instance that answers", handler: () => name }),
      defineTool({
        name: "tell",
        description: "Sends a log message to the GET stream of a session",
        input: z.object({ sessionId: z.string(), text: z.string() }),
        handler: async (event, { sessionId, text }) => {
          const sent = await event.context.mcp!.notifySession(sessionId, "notifications/message", {
            level: "info",
            data: text,
          });
          return String(sent);
        },
      }),
      defineTool({
        name: "ask",
        description: "Asks the client for a name",
        handler: async (event) => {
          const answer = await event.context.mcp!.elicit("name", "Your name?", {
            type: "object",
            properties: { name: { type: "string" } },
          });
          return `${answer.action === "accept" ? String(answer.content?.name) : answer.action} on ${name}`;
        },
      }),
      defineTool({
        name: "wait",
        description: "Runs until its call is aborted",
        handler: async (event) => {
          const signal = event.context.mcp!.signal;
          waitStarted.resolve();
          await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
          waitAborted.resolve(signal.reason);
          return "aborted";
        },
      }),
      defineTool({
        name: "steps",
        description: "Reports progress 1..steps, `delayMs` apart; with `hold`, waits for the gate after the first half",
        input: z.object({
          steps: z.number().int().min(1).max(100),
          delayMs: z.number().int().min(0),
          hold: z.boolean(),
        }),
        handler: async (event, { steps, delayMs, hold }) => {
          const mcp = event.context.mcp!;
          for (let step = 1; step <= steps; step++) {
            if (hold && step === Math.floor(steps / 2) + 1) await stepsGate.promise;
            else if (step > 1 && delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
            await mcp.progress(step, steps);
          }
          return `${steps} steps on ${name}`;
        },
      }),
      defineTool({
        name: "bump",
        description: "Announces that the tool list changed",
        handler: async (event) => {
          await event.context.mcp!.notify.toolsChanged();
          return "bumped";
        },
      }),
    ],
  });
  const server = await startHost(host, handler);
  let stopped = false;
  const instance: Instance = {
    name,
    handler,
    server,
    url: server.url,
    connection,
    eventsConnection,
    waitAborted,
    waitStarted,
    published,
    stepsGate,
    sessionData: (id) => store.get(id),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
      await handler.close();
      // Closing streams refreshes their sessions in the background: let that finish on the connection.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await store.close();
      if (eventsConnection !== connection) await eventsConnection.close();
    },
    kill: async () => {
      severed = true;
      await server.close();
    },
  };
  return instance;
}

/** Opens a legacy session on `url` (initialize at `version`, then notifications/initialized); returns its headers. */
export async function openSession(
  url: string,
  capabilities: object = {},
  version = VERSION,
): Promise<Record<string, string>> {
  const answer = await post(url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: version, capabilities, clientInfo: { name: "routing-test", version: "1" } },
  });
  if (answer.status !== 200) throw new Error(`initialize failed: ${answer.status} ${answer.text}`);
  const headers = { "mcp-session-id": answer.headers.get("mcp-session-id")!, "mcp-protocol-version": version };
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  if (initialized.status !== 202) throw new Error(`notifications/initialized failed: ${initialized.status}`);
  return headers;
}

let nextId = 100;

/** A `tools/call` POSTed to one instance and read to its end. */
export function callTool(
  url: string,
  headers: Record<string, string>,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Answer> {
  return post(url, { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } }, headers);
}

/** The text of a tools/call answer, JSON or SSE (its last event). */
export function resultText(answer: Answer): string {
  const message = answer.json ?? JSON.parse(answer.events.at(-1)!.data);
  const content = (message as { result?: { content?: { text?: string }[] } }).result?.content;
  if (!content) throw new Error(`no result in ${answer.text}`);
  return content[0]!.text!;
}

/** A `tools/call` POSTed to one instance whose SSE answer is read while it is open. */
export async function openCall(
  url: string,
  headers: Record<string, string>,
  name: string,
  id: number = nextId++,
  args: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
): Promise<{ id: number; sse: LiveSse }> {
  const abort = new AbortController();
  const params = { name, arguments: args, ...(meta ? { _meta: meta } : {}) };
  const response = await fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
    signal: abort.signal,
  });
  return { id, sse: liveSse(response, abort) };
}

/** Opens the session's GET stream on one instance, resuming after `lastEventId` when given. */
export async function getStream(
  url: string,
  headers: Record<string, string>,
  lastEventId?: string,
): Promise<{ response: Response; sse: LiveSse }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: "GET",
    headers: { accept: "text/event-stream", ...headers, ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
    signal: abort.signal,
  });
  return { response, sse: liveSse(response, abort) };
}

/** The `data` of a log message sent with `tell`. */
export function toldText(data: string): string {
  return String((JSON.parse(data) as { params: { data: unknown } }).params.data);
}
