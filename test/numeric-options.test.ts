/**
 * Every numeric option of every store and entry, given NaN (what `Number(env.X)` of an unset
 * variable gives), a string, 0, a negative, Infinity, a fraction and a valid value: each value the
 * option cannot take is refused where it is given, with a `RangeError` naming the option by its
 * path; each one it can take is kept. The Durable Object stores' rows run in real workerd
 * (test/cloudflare-options.test.ts), as does `defineMcpWorker`'s; an input request's `timeoutMs`,
 * given per request, in test/numeric-options-input.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mcpNitroModule, type McpNitroModuleOptions } from "../src/_entries/nitro.ts";
import { RedisEventStore, RedisSessionStore, RedisTaskStore } from "../src/_entries/redis.ts";
import { MemoryTaskStore, tasks } from "../src/_entries/tasks.ts";
import { createMcpTestClient } from "../src/_entries/testing.ts";
import {
  MemoryEventStore,
  MemorySessionStore,
  createTokenBucket,
  defineMcpHandler,
  defineProtectedResourceMetadata,
  defineResource,
  defineResourceTemplate,
} from "../src/index.ts";
import { VALUES, accepts, nested, refusal, type NumericOption } from "./helpers/numeric-option-cases.ts";

const base = { name: "numbers", version: "1.0.0" };

/** Where the options are given: how an error names them, the options, and what takes them. */
interface Target {
  title: string;
  prefix: string;
  options: NumericOption[];
  make(path: string, value: unknown): unknown;
}

const HANDLER_OPTIONS: NumericOption[] = [
  { path: "maxBodyBytes" },
  { path: "maxJsonDepth" },
  { path: "maxUriLength" },
  { path: "maxSubscriptions", zero: true, infinite: true },
  { path: "maxStreamBufferBytes" },
  { path: "keepAliveMs", zero: true },
  { path: "retryMs", zero: true },
  { path: "inputTimeoutMs" },
  { path: "maxInputRounds", zero: true },
  { path: "progressHeartbeatMs", zero: true },
  { path: "maxListens" },
  { path: "maxListensPerPrincipal", valid: 10 },
  { path: "requestState.ttlMs" },
  { path: "sessions.ttlMs" },
  { path: "sessions.maxSessions" },
  { path: "sessions.maxPendingSessions" },
  { path: "sessions.handshakeGraceMs", zero: true },
  { path: "sessions.maxSessionsPerPrincipal", valid: 10 },
  { path: "sessions.maxSubscriptions", zero: true, infinite: true },
  { path: "sessions.maxStreamsPerSession" },
  { path: "sessions.replayWindowMs", zero: true },
];

const SESSION_STORE_OPTIONS: NumericOption[] = [
  { path: "ttlMs" },
  { path: "maxSessions" },
  { path: "maxPendingSessions" },
  { path: "handshakeGraceMs", zero: true },
];
const TASK_STORE_OPTIONS: NumericOption[] = [
  { path: "maxTasks" },
  { path: "maxTasksPerOwner" },
  { path: "maxTtlMs" },
  { path: "maxListenersPerTask" },
  { path: "maxListeners" },
];

// The Redis stores open their connection on first use: made here, they reach no server.
const REDIS = { url: "redis://127.0.0.1:1" };
const CLUSTER = { clusterUrls: ["redis://127.0.0.1:1", "redis://127.0.0.1:2"] };

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** The Nitro module's setup on an app with one tool, given `mcp` as its config key. */
function nitroSetUp(mcp: McpNitroModuleOptions): void {
  const root = mkdtempSync(join(tmpdir(), "mcp-h3-numbers-"));
  roots.push(root);
  mkdirSync(join(root, "mcp/tools"), { recursive: true });
  writeFileSync(join(root, "mcp/tools/echo.ts"), 'export default defineMcpTool({ handler: () => "x" });\n');
  mcpNitroModule().setup({ options: { rootDir: root, srcDir: root, handlers: [], imports: { imports: [] }, mcp } });
}

const TARGETS: Target[] = [
  {
    title: "defineMcpHandler",
    prefix: "mcp-h3: defineMcpHandler: ",
    options: [...HANDLER_OPTIONS, { path: "auth.validateTimeoutMs" }],
    make: (path, value) =>
      defineMcpHandler({
        ...base,
        ...(path.startsWith("auth.")
          ? { auth: { validate: () => undefined, validateTimeoutMs: value as number } }
          : nested(path, value)),
      }),
  },
  {
    title: "defineMcpHandler's cache hints",
    prefix: 'mcp-h3: defineMcpHandler: cacheHints["tools/list"]: ',
    options: [{ path: "ttlMs", zero: true }],
    make: (path, value) => defineMcpHandler({ ...base, cacheHints: { "tools/list": { [path]: value } } }),
  },
  {
    title: "defineResource's cache hints",
    prefix: 'mcp-h3: Resource "docs://a": ',
    options: [{ path: "ttlMs", zero: true }],
    make: (path, value) =>
      defineResource({ uri: "docs://a", name: "a", cacheHints: { [path]: value }, handler: () => "" }),
  },
  {
    title: "defineResource",
    prefix: 'mcp-h3: Resource "docs://a": ',
    options: [{ path: "size", zero: true }],
    make: (path, value) => defineResource({ uri: "docs://a", name: "a", [path]: value, handler: () => "" }),
  },
  {
    title: "defineResourceTemplate's cache hints",
    prefix: 'mcp-h3: Resource template "docs://{id}": ',
    options: [{ path: "ttlMs", zero: true }],
    make: (path, value) =>
      defineResourceTemplate({
        uriTemplate: "docs://{id}",
        name: "t",
        cacheHints: { [path]: value },
        handler: () => "",
      }),
  },
  {
    title: "tasks()",
    prefix: "mcp-h3/tasks: tasks(): ",
    options: [
      { path: "defaultTtlMs" },
      { path: "maxTtlMs", valid: 60 * 60_000 },
      { path: "minTtlMs" },
      { path: "pollIntervalMs" },
      { path: "maxResultBytes" },
      { path: "leaseMs" },
      { path: "maxRunningTasks" },
      { path: "maxRunningTasksPerOwner" },
    ],
    make: (path, value) => defineMcpHandler({ ...base, extensions: [tasks({ [path]: value })] }),
  },
  {
    title: "the Nitro module's config key",
    prefix: "mcp-h3: the config key's mcp.",
    options: HANDLER_OPTIONS,
    make: (path, value) => nitroSetUp(nested(path, value)),
  },
  {
    title: "MemorySessionStore",
    prefix: "mcp-h3: MemorySessionStore ",
    options: SESSION_STORE_OPTIONS,
    make: (path, value) => new MemorySessionStore({ [path]: value }),
  },
  {
    title: "MemoryEventStore",
    prefix: "mcp-h3: MemoryEventStore ",
    options: [{ path: "maxEventsPerStream" }],
    make: (path, value) => new MemoryEventStore({ [path]: value }),
  },
  {
    title: "MemoryTaskStore",
    prefix: "mcp-h3: MemoryTaskStore ",
    options: TASK_STORE_OPTIONS,
    make: (path, value) => new MemoryTaskStore({ [path]: value }),
  },
  ...[
    { title: "Redis", connection: REDIS },
    { title: "Redis Cluster", connection: CLUSTER },
  ].flatMap(({ title, connection }): Target[] => [
    {
      title: `RedisSessionStore (${title})`,
      prefix: "mcp-h3: RedisSessionStore ",
      options: SESSION_STORE_OPTIONS,
      make: (path, value) => new RedisSessionStore({ ...connection, [path]: value }),
    },
    {
      title: `RedisEventStore (${title})`,
      prefix: "mcp-h3: RedisEventStore ",
      options: [{ path: "maxEventsPerStream" }, { path: "ttlMs" }],
      make: (path, value) => new RedisEventStore({ ...connection, [path]: value }),
    },
    {
      title: `RedisTaskStore (${title})`,
      prefix: "mcp-h3: RedisTaskStore ",
      options: TASK_STORE_OPTIONS,
      make: (path, value) => new RedisTaskStore({ ...connection, [path]: value }),
    },
  ]),
  {
    title: "createTokenBucket",
    prefix: "mcp-h3: createTokenBucket: ",
    options: [{ path: "capacity", fraction: true }, { path: "refillPerSecond", fraction: true }, { path: "maxKeys" }],
    make: (path, value) => createTokenBucket({ capacity: 1, refillPerSecond: 1, maxKeys: 1, [path]: value }),
  },
  {
    title: "defineProtectedResourceMetadata",
    prefix: "mcp-h3: defineProtectedResourceMetadata: ",
    options: [{ path: "maxAgeSeconds", zero: true }],
    make: (path, value) =>
      defineProtectedResourceMetadata({ authorizationServers: ["https://auth.example.com"], [path]: value }),
  },
];

describe.each(TARGETS)("$title", ({ prefix, options, make }) => {
  const rows = options.flatMap((option) => [
    ...VALUES.map(({ label, value }) => ({ option, label, value })),
    { option, label: "a valid value", value: option.valid ?? 1000 },
  ]);
  it.each(rows)("$option.path given $label", ({ option, value }) => {
    if (accepts(option, value)) expect(() => make(option.path, value)).not.toThrow();
    else expect(() => make(option.path, value)).toThrow(refusal(`${prefix}${option.path}`, value));
  });
});

describe("createMcpTestClient", () => {
  const handler = defineMcpHandler(base);
  it.each(
    ["timeout", "taskPollMs"].flatMap((path) =>
      [...VALUES, { label: "a valid value", value: 1000 }].map(({ label, value }) => ({ path, label, value })),
    ),
  )("$path given $label", async ({ path, value }) => {
    const connecting = createMcpTestClient(handler, { [path]: value });
    if (!accepts({}, value)) {
      await expect(connecting).rejects.toThrow(refusal(`mcp-h3/testing: createMcpTestClient: ${path}`, value));
      return;
    }
    const client = await connecting;
    await client.close();
  });
});
