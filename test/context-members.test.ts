/**
 * The members of `event.context.mcp` beyond the basics, proven over real HTTP on h3 v2 and h3 v1
 * with the real clients of both eras: the SDK 1.x client on a legacy session, and the 2.x client
 * pinned to 2026-07-28 (where `elicit` / `sample` are answered by the client's own handlers through
 * its multi round-trip driver). Covered: the eight log helpers and their gating, typed sampling
 * (schema, code fences, string shorthand, tool-enabled sampling and its capability gate),
 * progress heartbeats and `timeoutMs` while a legacy server→client request waits, every elicitation
 * response type (approval, single values, enums, multi-select, defaults, URL mode), `mcp.user`,
 * `mcp.name` / `mcp.method`, `setup` / `mcp.lifespan` / `close`, `notifySession`, and the
 * instrumentation hooks.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  ErrorCode,
  McpError,
  defineMcpHandler,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type ElicitSchema,
  type McpEventHandler,
} from "../src/index.ts";
import type { McpHooks, McpRequestInfo } from "../src/types/hooks.ts";
import { closeAfterEach } from "./helpers/cleanup.ts";
import { deferred } from "./helpers/deferred.ts";
import { HOSTS, startHost, type HostName, type RunningHost } from "./helpers/hosts.ts";
import {
  ERAS,
  connectEra,
  type CallResult,
  type Era,
  type EraClient,
  type EraClientOptions,
  type LogMessage,
  type Notification,
  type Progress,
  type RequestParams,
} from "./helpers/era-clients.ts";
import { MODERN_PROTOCOL_VERSION } from "./helpers/modern-clients.ts";
import { jsonOf, textOf } from "./helpers/results.ts";
import { initializeByHand } from "./helpers/rpc.ts";
import { sleep } from "./helpers/wait.ts";

// What `setup` builds, typed for every handler the way the docs tell users to do it.
// The documented way to type `mcp.lifespan`; `tsc` fails on `mcp.lifespan.db` below if it stops working.
declare module "mcp-h3" {
  interface McpLifespan {
    db?: { name: string; opened: number };
  }
}

// ---------------------------------------------------------------------------------------------
// Small helpers

/** The text of an `isError` result (a tool error the model can read). */
function toolErrorOf(result: CallResult): string {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const content = result.content as { type: string; text?: string }[];
  return content.map((item) => item.text ?? "").join("\n");
}

/** What a failed call rejected with: the JSON-RPC error as both clients surface it. */
async function rpcErrorOf(call: Promise<unknown>): Promise<{ code: number; message: string; data?: any }> {
  const outcome = await call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  expect(outcome.ok, `expected a JSON-RPC error, got ${JSON.stringify(outcome)}`).toBe(false);
  return (outcome as { error: { code: number; message: string; data?: unknown } }).error;
}

const TEXT = (text: string) => ({ type: "text", text });
const ANSWER = (text: string) => ({
  role: "assistant",
  content: TEXT(text),
  model: "test-model",
  stopReason: "endTurn",
});

/** A missing client capability: modern's own code; legacy revisions define none, so -32602. */
const MISSING_CAPABILITY = { modern: ErrorCode.MissingRequiredClientCapability, legacy: ErrorCode.InvalidParams };

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
const COLOURS = ["red", "green", "blue"] as const;

/** End-user keys as ChatGPT-style hosts send them in `params._meta`. */
const USER_META = {
  "openai/locale": "fr-FR",
  "openai/userLocation": {
    city: "Paris",
    region: "Île-de-France",
    country: "FR",
    timezone: "Europe/Paris",
    latitude: "48.8566",
    longitude: 2.3522,
  },
  "openai/userAgent": "ChatGPT/1.2025 (Mac OS X)",
  "openai/subject": "v1/user-123",
  "openai/session": "conv-456",
  timezone_offset_minutes: "-60",
};

const USER_SEEN = {
  locale: "fr-FR",
  location: {
    city: "Paris",
    region: "Île-de-France",
    country: "FR",
    timezone: "Europe/Paris",
    latitude: 48.8566,
    longitude: 2.3522,
  },
  userAgent: "ChatGPT/1.2025 (Mac OS X)",
  subject: "v1/user-123",
  session: "conv-456",
  timezoneOffsetMinutes: -60,
};

// ---------------------------------------------------------------------------------------------
// The server under test

/** Elicitation schemas by the name a test asks for. */
const ELICIT_SCHEMAS: Record<string, ElicitSchema> = {
  object: z.object({ name: z.string(), age: z.number() }),
  string: z.string(),
  number: z.number(),
  integer: z.number().int(),
  boolean: z.boolean(),
  enum: z.enum(COLOURS),
  // A titled single-select enum has no zod spelling: a plain JSON Schema goes on the wire as given.
  titled: {
    type: "string",
    oneOf: [
      { const: "r", title: "Red" },
      { const: "g", title: "Green" },
    ],
  },
  multi: z.array(z.enum(COLOURS)),
  defaults: z.object({ name: z.string().default("Ada"), subscribe: z.boolean().default(true) }),
  "default-value": z.string().default("guest"),
};

const CitySchema = z.object({ city: z.string() });
const CITY_JSON_SCHEMA = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
} as const;
const LOOKUP_TOOL = { name: "lookup", description: "Looks a city up", inputSchema: { type: "object" } };

/** One setup result; `mcp.lifespan` must be this very object in every request. */
let built: { db: { name: string; opened: number } } | undefined;
let setupCalls = 0;

function buildHandler(): McpEventHandler {
  return defineMcpHandler({
    name: "context-members",
    version: "1.0.0",
    logging: true,
    // The heartbeat tests fake the interval timers and move the clock in steps of this period.
    progressHeartbeatMs: 50,
    setup: async () => {
      setupCalls++;
      built = { db: { name: "pool", opened: setupCalls } };
      return built;
    },
    tools: [
      defineTool({
        name: "log-all",
        description: "One line per log helper, in severity order, then one without a logger",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          await mcp.debug({ n: 1 }, "members");
          await mcp.info({ n: 2 }, "members");
          await mcp.notice({ n: 3 }, "members");
          await mcp.warning({ n: 4 }, "members");
          await mcp.error({ n: 5 }, "members");
          await mcp.critical({ n: 6 }, "members");
          await mcp.alert({ n: 7 }, "members");
          await mcp.emergency({ n: 8 }, "members");
          await mcp.emergency("no logger");
          return "logged";
        },
      }),
      defineTool({
        name: "whoami",
        description: "What the handler sees of the request",
        handler: (event) => {
          const mcp = event.context.mcp!;
          return JSON.stringify({
            era: mcp.era,
            method: mcp.method,
            name: mcp.name ?? null,
            user: mcp.user ?? null,
            sessionId: mcp.sessionId ?? null,
            lifespanIsBuilt: mcp.lifespan === built,
            db: mcp.lifespan.db ?? null,
          });
        },
      }),
      defineTool({
        name: "sample-city",
        description: "Asks the model for a city, typed by a zod schema",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          const answer = await mcp.sample(
            "city",
            { messages: [{ role: "user", content: TEXT("A city, as JSON") }], maxTokens: 100 },
            { schema: CitySchema },
          );
          // Typed: `data` is what the schema outputs.
          const city: string = answer.data.city;
          return JSON.stringify({ era: mcp.era, city, data: answer.data, model: answer.model });
        },
      }),
      defineTool({
        name: "sample-city-json",
        description: "Asks the model for a city, checked by a plain JSON Schema",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          const answer = await mcp.sample("city", "A city, as JSON", { schema: CITY_JSON_SCHEMA });
          return JSON.stringify({ data: answer.data });
        },
      }),
      defineTool({
        name: "sample-prompt",
        description: "The string shorthand",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          const answer = await mcp.sample("prompt", "Name a city");
          return JSON.stringify({ content: answer.content, model: answer.model, data: "data" in answer });
        },
      }),
      defineTool({
        name: "sample-tools",
        description: "Tool-enabled sampling",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          const answer = await mcp.sample("tools", {
            messages: [{ role: "user", content: TEXT("Where is the Louvre?") }],
            maxTokens: 200,
            tools: [LOOKUP_TOOL],
            toolChoice: { mode: "required" },
          });
          return JSON.stringify({ content: answer.content, stopReason: answer.stopReason });
        },
      }),
      defineTool({
        name: "elicit",
        description: "Asks for one kind of answer",
        input: z.object({ kind: z.string() }),
        handler: async (event, { kind }) => {
          const mcp = event.context.mcp!;
          const result =
            kind === "approval"
              ? await mcp.elicit("approval", "Delete the draft?")
              : await mcp.elicit(kind, `Your ${kind}?`, ELICIT_SCHEMAS[kind]!);
          return JSON.stringify({ era: mcp.era, result });
        },
      }),
      defineTool({
        name: "elicit-typed",
        description: "Single values come back unwrapped and typed",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          // Asked together, so the modern era needs one round (sequential questions would need
          // mcp.state to carry the first answer, since a retry carries only its own round's answers).
          const [age, colours] = await Promise.all([
            mcp.elicit("age", "Your age?", z.number().int()),
            mcp.elicit("colours", "Colours?", z.array(z.enum(COLOURS))),
          ]);
          // Compile-time checks of the inferred content types.
          const years: number | undefined = age.content;
          const picked: ("red" | "green" | "blue")[] | undefined = colours.content;
          return JSON.stringify({ years, picked });
        },
      }),
      defineTool({
        name: "elicit-url",
        description: "URL-mode elicitation, by elicitUrl or by elicit with { url }",
        input: z.object({ via: z.enum(["elicitUrl", "elicit"]) }),
        handler: async (event, { via }) => {
          const mcp = event.context.mcp!;
          const url = "https://auth.example.com/consent?client=members";
          const result =
            via === "elicitUrl"
              ? await mcp.elicitUrl("consent", "Please authorise access", url)
              : await mcp.elicit("consent", "Please authorise access", { url });
          return JSON.stringify({ era: mcp.era, result });
        },
      }),
      defineTool({
        name: "wait-input",
        description: "Reports progress 1, waits for an answer from the client, then reports progress 2",
        input: z.object({ kind: z.enum(["elicit", "sample"]), timeoutMs: z.number().optional() }),
        handler: async (event, { kind, timeoutMs }) => {
          const mcp = event.context.mcp!;
          await mcp.progress(1, 10, "asking");
          const options = timeoutMs === undefined ? undefined : { timeoutMs };
          const started = performance.now();
          try {
            if (kind === "elicit") await mcp.elicit("wait", "Still there?", z.object({ ok: z.boolean() }), options);
            else await mcp.sample("wait", "Still there?", options);
          } catch (error) {
            const { code, message } = error as McpError;
            return JSON.stringify({ failed: true, code, message, waitedMs: performance.now() - started });
          }
          await mcp.progress(2, 10, "answered");
          return JSON.stringify({ failed: false });
        },
      }),
      defineTool({
        name: "notify-other",
        description: "Sends a notification to another legacy session",
        input: z.object({ target: z.string() }),
        handler: async (event, { target }) => {
          const mcp = event.context.mcp!;
          const delivered = await mcp.notifySession(target, "notifications/custom", {
            from: mcp.sessionId ?? mcp.era,
          });
          return JSON.stringify({ delivered });
        },
      }),
    ],
    prompts: [
      definePrompt({
        name: "named",
        handler: (event) => `${event.context.mcp!.method} ${event.context.mcp!.name}`,
      }),
    ],
    resources: [
      defineResource({
        uri: "memo://note",
        name: "note",
        mimeType: "text/plain",
        handler: (event) => `${event.context.mcp!.method} ${event.context.mcp!.name}`,
      }),
      defineResourceTemplate({
        uriTemplate: "items://{id}",
        name: "item",
        mimeType: "text/plain",
        handler: (event) => `${event.context.mcp!.method} ${event.context.mcp!.name}`,
      }),
    ],
  });
}

/** The wire form of a single value: wrapped as the one required field `value`. */
function wrapped(field: Record<string, unknown>): Record<string, unknown> {
  return { type: "object", properties: { value: field }, required: ["value"] };
}

// ---------------------------------------------------------------------------------------------

describe.each(HOSTS)("event.context.mcp members on %s", (host) => {
  let server: RunningHost;

  beforeAll(async () => {
    // Each host gets its own handler, so its own (lazy) setup.
    setupCalls = 0;
    built = undefined;
    server = await startHost(host, buildHandler());
  });

  afterAll(async () => {
    await server.close();
  });

  const open = closeAfterEach();

  async function connect(era: Era, options?: EraClientOptions): Promise<EraClient> {
    const client = await connectEra(era, server.url, options);
    open.push(client);
    return client;
  }

  describe.each(ERAS)("%s era", (era) => {
    // -------------------------------------------------------------------------------------------
    // Logging

    it("sends each of the eight log helpers at its own level, gated like log()", async () => {
      const client = await connect(era);
      const everything: LogMessage[] = [
        ...LEVELS.map((level, index) => ({ level, logger: "members", data: { n: index + 1 } })),
        { level: "emergency", data: "no logger" },
      ];

      // Before the client asked for a level: a legacy session gets everything, the modern era
      // nothing (a modern request without a level in _meta MUST NOT receive log messages).
      expect(textOf(await client.callTool("log-all"))).toBe("logged");
      expect(client.logs).toEqual(era === "legacy" ? everything : []);

      client.logs.length = 0;
      await client.setLogLevel("debug");
      expect(textOf(await client.callTool("log-all"))).toBe("logged");
      expect(client.logs).toEqual(everything);

      // A threshold drops the helpers below it, as log() does.
      client.logs.length = 0;
      await client.setLogLevel("error");
      expect(textOf(await client.callTool("log-all"))).toBe("logged");
      expect(client.logs).toEqual(everything.slice(4));

      client.logs.length = 0;
      await client.setLogLevel("emergency");
      expect(textOf(await client.callTool("log-all"))).toBe("logged");
      expect(client.logs).toEqual(everything.slice(7));
    });

    // -------------------------------------------------------------------------------------------
    // Sampling

    describe("sample", () => {
      it("parses the model's JSON answer with a zod schema into typed data", async () => {
        const client = await connect(era, { onSample: () => ANSWER('{"city":"Paris"}') });
        expect(jsonOf(await client.callTool("sample-city"))).toEqual({
          era,
          city: "Paris",
          data: { city: "Paris" },
          model: "test-model",
        });
      });

      it("reads the JSON out of a Markdown code fence", async () => {
        const client = await connect(era, { onSample: () => ANSWER('```json\n{ "city": "Paris" }\n```') });
        expect(jsonOf(await client.callTool("sample-city"))).toMatchObject({ data: { city: "Paris" } });
      });

      it("checks the answer with a plain JSON Schema too", async () => {
        const answers = ['{"city":"Lyon"}', '{"town":"Lyon"}'];
        const client = await connect(era, { onSample: () => ANSWER(answers.shift()!) });
        expect(jsonOf(await client.callTool("sample-city-json"))).toEqual({ data: { city: "Lyon" } });
        expect(toolErrorOf(await client.callTool("sample-city-json"))).toMatch(/does not match the schema/);
      });

      it("turns an answer that does not validate into a tool error naming the mismatch", async () => {
        const client = await connect(era, { onSample: () => ANSWER('{"town":"Paris"}') });
        const message = toolErrorOf(await client.callTool("sample-city"));
        expect(message).toMatch(/does not match the schema/);
        // The message says what is wrong, so the model can correct itself.
        expect(message).toMatch(/city/);
      });

      it("turns an answer that is not JSON into a tool error", async () => {
        const client = await connect(era, { onSample: () => ANSWER("Paris, of course") });
        expect(toolErrorOf(await client.callTool("sample-city"))).toMatch(/not JSON/);
      });

      it("sends a string prompt as one user message with maxTokens 1000", async () => {
        const seen: RequestParams[] = [];
        const client = await connect(era, {
          onSample: (params) => {
            seen.push(params);
            return ANSWER("Oslo");
          },
        });
        expect(jsonOf(await client.callTool("sample-prompt"))).toEqual({
          content: TEXT("Oslo"),
          model: "test-model",
          data: false,
        });
        expect(seen).toHaveLength(1);
        expect(seen[0]!.messages).toEqual([{ role: "user", content: TEXT("Name a city") }]);
        expect(seen[0]!.maxTokens).toBe(1000);
      });

      it("passes tools and toolChoice through to a client with sampling.tools", async () => {
        const seen: RequestParams[] = [];
        const toolUse = { type: "tool_use", id: "call-1", name: "lookup", input: { q: "Louvre" } };
        const client = await connect(era, {
          capabilities: { sampling: { tools: {} } },
          onSample: (params) => {
            seen.push(params);
            return { role: "assistant", content: [toolUse], model: "test-model", stopReason: "toolUse" };
          },
        });
        expect(jsonOf(await client.callTool("sample-tools"))).toEqual({ content: [toolUse], stopReason: "toolUse" });
        expect(seen).toHaveLength(1);
        expect(seen[0]!.tools).toEqual([LOOKUP_TOOL]);
        expect(seen[0]!.toolChoice).toEqual({ mode: "required" });
      });

      it("refuses tool-enabled sampling (-32021; legacy -32602) when the client lacks sampling.tools", async () => {
        const seen: RequestParams[] = [];
        const client = await connect(era, {
          onSample: (params) => {
            seen.push(params);
            return ANSWER("never");
          },
        });
        const error = await rpcErrorOf(client.callTool("sample-tools"));
        expect(error.code).toBe(MISSING_CAPABILITY[era]);
        expect(error.data).toEqual({ requiredCapabilities: { sampling: { tools: {} } } });
        // The client was never asked.
        expect(seen).toEqual([]);
      });
    });

    // -------------------------------------------------------------------------------------------
    // Elicitation

    describe("elicit", () => {
      /** Connects a client that answers with `answer` and records what it was asked. */
      async function asking(answer: (params: RequestParams) => unknown, options: EraClientOptions = {}) {
        const seen: RequestParams[] = [];
        const client = await connect(era, {
          ...options,
          onElicit: (params) => {
            seen.push(params);
            return answer(params);
          },
        });
        return { client, seen };
      }

      it("asks for approval only, without fields, and returns accept and decline", async () => {
        const actions = ["accept", "decline"];
        const { client, seen } = await asking(() => ({ action: actions.shift() }));
        expect(jsonOf(await client.callTool("elicit", { kind: "approval" }))).toEqual({
          era,
          result: { action: "accept" },
        });
        expect(seen[0]!.message).toBe("Delete the draft?");
        expect(seen[0]!.requestedSchema).toEqual({ type: "object", properties: {} });
        expect(jsonOf(await client.callTool("elicit", { kind: "approval" }))).toEqual({
          era,
          result: { action: "decline" },
        });
      });

      const single: [kind: string, field: Record<string, unknown>, value: unknown][] = [
        ["string", { type: "string" }, "Ada"],
        ["number", { type: "number" }, 3.5],
        ["integer", { type: "integer" }, 42],
        ["boolean", { type: "boolean" }, true],
        ["enum", { type: "string", enum: ["red", "green", "blue"] }, "green"],
        [
          "titled",
          {
            type: "string",
            oneOf: [
              { const: "r", title: "Red" },
              { const: "g", title: "Green" },
            ],
          },
          "g",
        ],
        ["multi", { type: "array", items: { type: "string", enum: ["red", "green", "blue"] } }, ["red", "blue"]],
      ];

      it.each(single)("asks for a single %s and returns the value unwrapped", async (kind, field, value) => {
        const { client, seen } = await asking(() => ({ action: "accept", content: { value } }));
        expect(jsonOf(await client.callTool("elicit", { kind }))).toEqual({
          era,
          result: { action: "accept", content: value },
        });
        expect(seen).toHaveLength(1);
        expect(seen[0]!.message).toBe(`Your ${kind}?`);
        expect(seen[0]!.requestedSchema).toMatchObject(wrapped(field));
      });

      it("types single values (integer, multi-select) in the handler", async () => {
        const { client } = await asking((params) =>
          params.message === "Your age?"
            ? { action: "accept", content: { value: 36 } }
            : { action: "accept", content: { value: ["green"] } },
        );
        expect(jsonOf(await client.callTool("elicit-typed"))).toEqual({ years: 36, picked: ["green"] });
      });

      it("asks for an object of fields and returns it as is", async () => {
        const { client, seen } = await asking(() => ({ action: "accept", content: { name: "Lin", age: 7 } }));
        expect(jsonOf(await client.callTool("elicit", { kind: "object" }))).toEqual({
          era,
          result: { action: "accept", content: { name: "Lin", age: 7 } },
        });
        expect(seen[0]!.requestedSchema).toEqual({
          type: "object",
          properties: { name: { type: "string" }, age: { type: "number" } },
          required: ["name", "age"],
        });
      });

      it("passes defaults to the client and fills what the user left out", async () => {
        const { client, seen } = await asking(() => ({ action: "accept", content: {} }));
        expect(jsonOf(await client.callTool("elicit", { kind: "defaults" }))).toEqual({
          era,
          result: { action: "accept", content: { name: "Ada", subscribe: true } },
        });
        expect(seen[0]!.requestedSchema).toMatchObject({
          type: "object",
          properties: { name: { type: "string", default: "Ada" }, subscribe: { type: "boolean", default: true } },
        });
        // Fields with a default are not required of the user.
        expect((seen[0]!.requestedSchema as { required?: unknown }).required).toBeUndefined();

        expect(jsonOf(await client.callTool("elicit", { kind: "default-value" }))).toEqual({
          era,
          result: { action: "accept", content: "guest" },
        });
        expect(seen[1]!.requestedSchema).toMatchObject({
          properties: { value: { type: "string", default: "guest" } },
        });
      });

      it("returns decline and cancel instead of throwing", async () => {
        const actions = ["decline", "cancel"];
        const { client } = await asking(() => ({ action: actions.shift() }));
        expect(jsonOf(await client.callTool("elicit", { kind: "object" }))).toEqual({
          era,
          result: { action: "decline" },
        });
        expect(jsonOf(await client.callTool("elicit", { kind: "number" }))).toEqual({
          era,
          result: { action: "cancel" },
        });
      });

      const invalid: [kind: string, content: Record<string, unknown>][] = [
        ["number", { value: "three" }],
        ["integer", { value: 4.5 }],
        ["boolean", { value: "yes" }],
        ["enum", { value: "purple" }],
        ["titled", { value: "x" }],
        ["multi", { value: ["red", "purple"] }],
        ["object", { name: "Lin" }],
      ];

      it.each(invalid)("rejects accepted %s content that does not match the schema", async (kind, content) => {
        const { client } = await asking(() => ({ action: "accept", content }));
        const error = await rpcErrorOf(client.callTool("elicit", { kind }));
        expect(error.code).toBe(ErrorCode.InvalidParams);
        expect(error.message).toMatch(/does not match the requested schema/);
      });

      it.each(["elicitUrl", "elicit"])("asks the user to visit a URL (via %s)", async (via) => {
        const { client, seen } = await asking(() => ({ action: "accept" }), {
          capabilities: { elicitation: { form: {}, url: {} } },
        });
        expect(jsonOf(await client.callTool("elicit-url", { via }))).toEqual({ era, result: { action: "accept" } });
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatchObject({
          mode: "url",
          message: "Please authorise access",
          url: "https://auth.example.com/consent?client=members",
        });
        // 2025-11-25 requires an elicitationId (the 2026-07-28 wire check is further down).
        if (era === "legacy") expect(seen[0]!.elicitationId).toEqual(expect.any(String));
      });

      it("refuses URL mode (-32021; legacy -32602) when the client lacks elicitation.url", async () => {
        const { client, seen } = await asking(() => ({ action: "accept" }));
        const error = await rpcErrorOf(client.callTool("elicit-url", { via: "elicitUrl" }));
        expect(error.code).toBe(MISSING_CAPABILITY[era]);
        expect(error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
        expect(seen).toEqual([]);
      });
    });

    // -------------------------------------------------------------------------------------------
    // Who and what

    it("reads the end-user context from _meta, normalised, and undefined without it", async () => {
      const client = await connect(era);
      const seen = jsonOf(await client.callTool("whoami", {}, { meta: USER_META }));
      expect(seen.user).toEqual(USER_SEEN);
      // Only some keys, some of them unusable: those are left out.
      const partial = jsonOf(
        await client.callTool(
          "whoami",
          {},
          { meta: { "openai/locale": "de-DE", "openai/subject": 42, timezone_offset_minutes: "soon" } },
        ),
      );
      expect(partial.user).toEqual({ locale: "de-DE" });
      // No user keys at all (the 2.x client still sends its envelope keys): undefined.
      expect(jsonOf(await client.callTool("whoami", {}, { meta: { unrelated: true } })).user).toBeNull();
      expect(jsonOf(await client.callTool("whoami")).user).toBeNull();
      // The keys really went over the wire in params._meta.
      const sent = client.posted.filter((message) => message.method === "tools/call")[0]!;
      expect(sent.params!._meta).toMatchObject(USER_META);
    });

    it("names the method and the tool, prompt or resource being served", async () => {
      const client = await connect(era);
      expect(jsonOf(await client.callTool("whoami"))).toMatchObject({ era, method: "tools/call", name: "whoami" });
      const prompt = await client.getPrompt("named", {});
      expect(prompt.messages[0]!.content).toEqual(TEXT("prompts/get named"));
      const note = await client.readResource("memo://note");
      expect(note.contents[0]!.text).toBe("resources/read memo://note");
      // A template resource: the concrete URI, not the template.
      const item = await client.readResource("items://42");
      expect(item.contents[0]!.text).toBe("resources/read items://42");
    });

    it("shows what setup built as mcp.lifespan", async () => {
      const client = await connect(era);
      const seen = jsonOf(await client.callTool("whoami"));
      expect(seen).toMatchObject({ lifespanIsBuilt: true, db: { name: "pool", opened: 1 } });
      // One setup for the whole handler, whatever the era or the number of requests.
      expect(setupCalls).toBe(1);
    });
  });

  // ---------------------------------------------------------------------------------------------
  // Legacy waits: heartbeats and timeouts

  describe("while a legacy server→client request waits", () => {
    // Time is the subject here, so the server's timers are faked (only setInterval/setTimeout and
    // their clears, installed once the client is connected; sockets keep their own timers) and the
    // test moves the clock itself: no count depends on how fast this machine is.
    afterEach(() => {
      vi.restoreAllMocks();
      vi.useRealTimers();
    });

    /** Lets sockets and promises run (setImmediate is not faked). */
    const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

    it.each(["elicit", "sample"])(
      "%s: one progress heartbeat per heartbeat period, with increasing values, until the answer",
      async (kind) => {
        const arrivals: Progress[] = [];
        const asked = deferred();
        const answer = deferred();
        const waitForAnswer = async (value: unknown) => {
          asked.resolve();
          await answer.promise;
          return value;
        };
        const client = await connect("legacy", {
          onElicit: () => waitForAnswer({ action: "accept", content: { ok: true } }),
          onSample: () => waitForAnswer(ANSWER("yes")),
        });
        vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
        // The heartbeat is the one interval of progressHeartbeatMs (keep-alive runs at other periods).
        const started = vi.spyOn(globalThis, "setInterval");
        const cleared = vi.spyOn(globalThis, "clearInterval");
        const heartbeatTimers = () => started.mock.results.filter((_, i) => started.mock.calls[i]![1] === 50);
        const call = client.callTool(
          "wait-input",
          { kind },
          { onprogress: (progress) => void arrivals.push(progress) },
        );
        await asked.promise;
        // The heartbeat starts right after the request went out; wait for it without a clock.
        while (heartbeatTimers().length === 0) await turn();

        const HEARTBEATS = 3;
        for (let beat = 1; beat <= HEARTBEATS; beat++) {
          vi.advanceTimersByTime(50);
          while (arrivals.length < 1 + beat) await turn();
        }
        expect(arrivals).toHaveLength(1 + HEARTBEATS);
        answer.resolve();
        expect(jsonOf(await call)).toEqual({ failed: false });

        const values = arrivals.map((arrival) => arrival.progress);
        expect(values[0]).toBe(1);
        expect(values.at(-1)).toBe(2);
        // Every notification increases progress, as the specification requires.
        for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]!);
        // Exactly one heartbeat per period of waiting, each between "asking" (1) and "answered" (2).
        const heartbeats = values.slice(1, -1);
        expect(heartbeats).toHaveLength(HEARTBEATS);
        expect(heartbeats.every((value) => value > 1 && value < 2)).toBe(true);

        // They stop with the answer: the one heartbeat interval was cleared, and more periods send nothing.
        const [heartbeat, ...more] = heartbeatTimers();
        expect(more).toEqual([]);
        expect(cleared.mock.calls.map(([timer]) => timer)).toContain(heartbeat!.value);
        const count = arrivals.length;
        vi.advanceTimersByTime(50 * 10);
        await client.setLogLevel("debug"); // a round trip through the server
        expect(arrivals).toHaveLength(count);
        expect(client.errors).toEqual([]);
      },
    );

    it.each(["elicit", "sample"])("%s: timeoutMs bounds the wait when the client never answers", async (kind) => {
      const asked = deferred();
      const never = () => {
        asked.resolve();
        return new Promise<never>(() => {});
      };
      const client = await connect("legacy", { onElicit: never, onSample: never });
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "performance"] });
      let settled = false;
      const call = client.callTool("wait-input", { kind, timeoutMs: 150 }).finally(() => (settled = true));
      await asked.promise;
      // Just before the bound nothing has happened; at the bound the wait ends.
      vi.advanceTimersByTime(149);
      await client.setLogLevel("debug"); // a round trip through the server
      expect(settled).toBe(false);
      vi.advanceTimersByTime(1);
      const seen = jsonOf(await call);
      expect(seen).toMatchObject({ failed: true, code: ErrorCode.RequestTimeout, waitedMs: 150 });
      expect(seen.message).toMatch(/timed out after 150 ms/);
    });
  });

  // ---------------------------------------------------------------------------------------------
  // The modern wire form of a URL elicitation

  it("sends a modern URL elicitation without elicitationId (removed in 2026-07-28)", async () => {
    // Raw, because the 2.x client parses input requests with the 2026 schema and drops unknown
    // keys before its handler sees them: only the wire shows what the server sent.
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN_PROTOCOL_VERSION,
        "mcp-method": "tools/call",
        "mcp-name": "elicit-url",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "elicit-url",
          arguments: { via: "elicitUrl" },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
            "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } },
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { resultType: string; inputRequests: Record<string, any> } };
    expect(body.result.resultType).toBe("input_required");
    // wire.md: `{method:"elicitation/create", params:{mode:"url", message, url}}`, no elicitationId.
    expect(body.result.inputRequests.consent).toEqual({
      method: "elicitation/create",
      params: {
        mode: "url",
        message: "Please authorise access",
        url: "https://auth.example.com/consent?client=members",
      },
    });
  });

  // ---------------------------------------------------------------------------------------------
  // notifySession

  describe("notifySession", () => {
    /** A legacy client whose GET stream is open, collecting what arrives on it. */
    async function listeningTarget(): Promise<{ client: EraClient; received: Notification[] }> {
      const received: Notification[] = [];
      const client = await connect("legacy", { onNotification: (n) => void received.push(n) });
      // The SDK opens the standalone GET stream by itself after initialize; wait until it is up.
      await expect
        .poll(() => client.exchanges.some((exchange) => exchange.httpMethod === "GET" && exchange.status === 200))
        .toBe(true);
      return { client, received };
    }

    it("delivers to another legacy session's stream and answers true", async () => {
      const target = await listeningTarget();
      const caller = await connect("legacy");
      expect(caller.sessionId).not.toBe(target.client.sessionId);
      expect(jsonOf(await caller.callTool("notify-other", { target: target.client.sessionId! }))).toEqual({
        delivered: true,
      });
      await expect.poll(() => target.received).toHaveLength(1);
      expect(target.received[0]).toEqual({
        jsonrpc: "2.0",
        method: "notifications/custom",
        params: { from: caller.sessionId },
      });
    });

    it("answers false for an unknown session", async () => {
      const caller = await connect("legacy");
      expect(jsonOf(await caller.callTool("notify-other", { target: "no-such-session" }))).toEqual({
        delivered: false,
      });
    });

    it("answers false for a session that holds no stream", async () => {
      // Initialized by hand, so no GET stream is ever opened for it.
      const silent = await initializeByHand(server.url);
      const caller = await connect("legacy");
      expect(jsonOf(await caller.callTool("notify-other", { target: silent }))).toEqual({ delivered: false });
    });

    it("lets a modern request, which has no session of its own, notify a legacy session", async () => {
      const target = await listeningTarget();
      const caller = await connect("modern");
      expect(jsonOf(await caller.callTool("notify-other", { target: target.client.sessionId! }))).toEqual({
        delivered: true,
      });
      await expect.poll(() => target.received).toHaveLength(1);
      expect(target.received[0]).toEqual({
        jsonrpc: "2.0",
        method: "notifications/custom",
        params: { from: "modern" },
      });
      expect(jsonOf(await caller.callTool("notify-other", { target: "no-such-session" }))).toEqual({
        delivered: false,
      });
    });
  });
});

// -----------------------------------------------------------------------------------------------
// Instrumentation hooks

/** A hook call as it was at the time of the call (the info object is filled in as the request goes). */
interface HookRecord {
  phase: "onRequest" | "onResponse" | "onError";
  era: string;
  method: string;
  name: string | undefined;
  requestId: unknown;
  protocolVersion: string;
  sessionId: string | undefined;
  principal: string | undefined;
  durationMs: number;
  status: McpRequestInfo["status"];
  error: McpRequestInfo["error"];
  info: McpRequestInfo;
}

function recordingHooks(records: HookRecord[], order?: string[]): McpHooks {
  const note = (phase: HookRecord["phase"]) => (info: McpRequestInfo) => {
    records.push({
      phase,
      era: info.era,
      method: info.method,
      name: info.name,
      requestId: info.requestId,
      protocolVersion: info.protocolVersion,
      sessionId: info.sessionId,
      principal: info.principal,
      durationMs: info.durationMs,
      status: info.status,
      error: info.error && { ...info.error },
      info,
    });
    order?.push(`${phase} ${info.name ?? info.method}`);
  };
  return { onRequest: note("onRequest"), onResponse: note("onResponse"), onError: note("onError") };
}

function hookTools(order: string[], events: unknown[]) {
  return [
    defineTool({
      name: "echo",
      description: "Takes 30 ms of the (faked) performance clock",
      handler: async (event) => {
        order.push("handler start");
        events.push(event);
        // The instrumentation tests fake `performance` (see below): the handler's 30 ms are exact
        // and need no real wait. Elsewhere the handler answers at once.
        if (vi.isFakeTimers()) vi.advanceTimersByTime(30);
        order.push("handler end");
        return "echo";
      },
    }),
    defineTool({
      name: "fail",
      description: "Fails with a JSON-RPC error",
      handler: () => {
        throw new McpError(ErrorCode.InvalidParams, "No such city", { city: "Atlantis" });
      },
    }),
    defineTool({
      name: "ask",
      description: "Elicits once",
      handler: async (event) => {
        const answer = await event.context.mcp!.elicit("who", "Who?", z.string());
        return String(answer.content);
      },
    }),
    defineTool({
      name: "hang",
      description: "Reports progress, then waits for cancellation",
      handler: async (event) => {
        const mcp = event.context.mcp!;
        await mcp.progress(1, 2);
        await new Promise((resolve) => mcp.signal.addEventListener("abort", resolve, { once: true }));
        return "cancelled";
      },
    }),
  ];
}

describe.each(HOSTS)("instrumentation hooks on %s", (host) => {
  const records: HookRecord[] = [];
  const order: string[] = [];
  const events: unknown[] = [];
  let server: RunningHost;
  const open: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    server = await startHost(
      host,
      defineMcpHandler({
        name: "hooks",
        version: "1.0.0",
        tools: hookTools(order, events),
        hooks: recordingHooks(records, order),
      }),
    );
  });

  afterAll(async () => {
    await server.close();
  });

  // Durations are read from `performance.now()`: faking only that clock makes them exact, while
  // sockets and the clients keep their real timers.
  beforeEach(() => void vi.useFakeTimers({ toFake: ["performance"] }));

  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})));
    records.length = 0;
    order.length = 0;
    events.length = 0;
  });

  async function connect(era: Era, options?: EraClientOptions): Promise<EraClient> {
    const client = await connectEra(era, server.url, options);
    open.push(client);
    return client;
  }

  const forTool = (name: string) => records.filter((record) => record.name === name);

  describe.each(ERAS)("%s era", (era) => {
    it("reports a successful call: era, method, name, session, duration, status", async () => {
      const client = await connect(era);
      records.length = 0;
      order.length = 0;
      expect(textOf(await client.callTool("echo"))).toBe("echo");
      const calls = forTool("echo");
      expect(calls.map((record) => record.phase)).toEqual(["onRequest", "onResponse"]);
      const [request, response] = calls as [HookRecord, HookRecord];
      const expected = {
        era,
        method: "tools/call",
        name: "echo",
        protocolVersion: era === "legacy" ? "2025-11-25" : MODERN_PROTOCOL_VERSION,
        sessionId: era === "legacy" ? client.sessionId : undefined,
        principal: undefined,
      };
      expect(request).toMatchObject({ ...expected, status: undefined, durationMs: 0 });
      expect(response).toMatchObject({ ...expected, status: "ok", error: undefined });
      expect(response.requestId).toEqual(client.posted.filter((m) => m.method === "tools/call")[0]!.id);
      // The duration is the handler's 30 ms of the faked clock, exactly.
      expect(response.durationMs).toBe(30);
      // One info object travels through the calls of a request, carrying the handler's event.
      expect(response.info).toBe(request.info);
      expect(events).toHaveLength(1);
      expect(request.info.event).toBe(events[0]);
      // onRequest before the handler runs; onResponse after it ended.
      expect(order).toEqual(["onRequest echo", "handler start", "handler end", "onResponse echo"]);
    });

    it("calls onError, then onResponse, for a request that fails", async () => {
      const client = await connect(era);
      const error = await rpcErrorOf(client.callTool("fail"));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      const calls = forTool("fail");
      expect(calls.map((record) => record.phase)).toEqual(["onRequest", "onError", "onResponse"]);
      for (const record of calls.slice(1)) {
        expect(record).toMatchObject({
          era,
          method: "tools/call",
          status: "error",
          error: { code: ErrorCode.InvalidParams, message: "No such city" },
        });
        expect(record.durationMs).toBe(0);
      }
      // An unknown tool fails the same way.
      await rpcErrorOf(client.callTool("missing"));
      expect(forTool("missing").map((record) => [record.phase, record.status])).toEqual([
        ["onRequest", undefined],
        ["onError", "error"],
        ["onResponse", "error"],
      ]);
    });

    it("reports input rounds by their status", async () => {
      const client = await connect(era, { onElicit: () => ({ action: "accept", content: { value: "Ada" } }) });
      expect(textOf(await client.callTool("ask"))).toBe("Ada");
      const responses = forTool("ask").filter((record) => record.phase === "onResponse");
      // Legacy: one request that waited; modern: an input_required round, then the retry.
      expect(responses.map((record) => record.status)).toEqual(era === "legacy" ? ["ok"] : ["input_required", "ok"]);
    });

    it("reports a cancelled request as cancelled", async () => {
      const client = await connect(era);
      const controller = new AbortController();
      const progressed = deferred<void>();
      const call = client.callTool("hang", {}, { signal: controller.signal, onprogress: () => progressed.resolve() });
      await progressed.promise;
      controller.abort(new Error("user gave up"));
      await rpcErrorOf(call);
      await expect.poll(() => forTool("hang").map((record) => record.phase)).toEqual(["onRequest", "onResponse"]);
      expect(forTool("hang")[1]!.status).toBe("cancelled");
    });
  });
});

describe.each(HOSTS)("hooks that throw on %s", (host) => {
  const boom = () => {
    throw new Error("hook failure");
  };
  const throwing: McpHooks = { onRequest: boom, onResponse: boom, onError: boom };

  it.each([
    ["alone", (_records: HookRecord[]) => throwing],
    ["with another hook set", (records: HookRecord[]) => [throwing, recordingHooks(records)]],
  ] as const)("do not change the outcome of a request (%s)", async (_label, hooksFor) => {
    const records: HookRecord[] = [];
    const server = await startHost(
      host,
      defineMcpHandler({ name: "throwing", version: "1.0.0", tools: hookTools([], []), hooks: hooksFor(records) }),
    );
    const clients: EraClient[] = [];
    try {
      for (const era of ERAS) {
        const client = await connectEra(era, server.url);
        clients.push(client);
        expect(textOf(await client.callTool("echo"))).toBe("echo");
        const error = await rpcErrorOf(client.callTool("fail"));
        expect(error.code).toBe(ErrorCode.InvalidParams);
        expect(error.message).toContain("No such city");
      }
      if (_label !== "alone") {
        // The other hook set still saw every call, in full.
        const phases = records.filter((record) => record.name !== undefined).map((r) => `${r.era} ${r.phase}`);
        expect(phases).toEqual([
          "legacy onRequest",
          "legacy onResponse",
          "legacy onRequest",
          "legacy onError",
          "legacy onResponse",
          "modern onRequest",
          "modern onResponse",
          "modern onRequest",
          "modern onError",
          "modern onResponse",
        ]);
      }
    } finally {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await server.close();
    }
  });
});

// -----------------------------------------------------------------------------------------------
// setup, lifespan, close

describe.each(HOSTS)("setup and close on %s", (host: HostName) => {
  /** Starts a handler on the host; the test closes it. */
  async function serve(handler: McpEventHandler) {
    const running = await startHost(host, handler);
    const clients: EraClient[] = [];
    return {
      url: running.url,
      async connect(era: Era) {
        const client = await connectEra(era, running.url);
        clients.push(client);
        return client;
      },
      async stop() {
        await Promise.all(clients.map((client) => client.close().catch(() => {})));
        await running.close();
      },
    };
  }

  function lifespanTool(seen: unknown[]) {
    return defineTool({
      name: "lifespan",
      description: "Shows mcp.lifespan",
      handler: (event) => {
        const mcp = event.context.mcp!;
        seen.push(mcp.lifespan);
        return JSON.stringify({ era: mcp.era, lifespan: mcp.lifespan });
      },
    });
  }

  it("runs setup once across concurrent first requests of both eras, and close with its result", async () => {
    let calls = 0;
    const closed: unknown[] = [];
    const seen: unknown[] = [];
    const resources = { db: { name: "pool", opened: 0 } };
    const handler = defineMcpHandler({
      name: "lifespan",
      version: "1.0.0",
      tools: [lifespanTool(seen)],
      setup: async () => {
        calls++;
        // Slow enough that every first request arrives while it runs.
        await sleep(100);
        resources.db.opened = calls;
        return resources;
      },
      close: (lifespan) => void closed.push(lifespan),
    });
    const server = await serve(handler);
    try {
      // Lazily: nothing ran before the first request.
      expect(calls).toBe(0);
      const clients = await Promise.all([...ERAS, ...ERAS, ...ERAS].map((era) => server.connect(era)));
      expect(calls).toBe(1);
      for (const client of clients) {
        expect(jsonOf(await client.callTool("lifespan"))).toEqual({
          era: client.era,
          lifespan: { db: { name: "pool", opened: 1 } },
        });
      }
      // The very object setup returned, in every request.
      expect(seen).toHaveLength(6);
      for (const lifespan of seen) expect(lifespan).toBe(resources);
      expect(closed).toEqual([]);

      await handler.close();
      expect(closed).toHaveLength(1);
      expect(closed[0]).toBe(resources);
      // Once.
      await handler.close();
      expect(closed).toHaveLength(1);
      expect(calls).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it.each(["async", "sync"] as const)(
    "answers 500 while setup fails (%s throw) and retries it on the next request",
    async (kind) => {
      let calls = 0;
      const setup = (): { db: { name: string; opened: number } } => {
        calls++;
        if (calls <= 2) throw new Error(`database unreachable (${calls})`);
        return { db: { name: "pool", opened: calls } };
      };
      const handler = defineMcpHandler({
        name: "failing-setup",
        version: "1.0.0",
        tools: [lifespanTool([])],
        setup: kind === "async" ? async () => setup() : setup,
      });
      const server = await serve(handler);
      try {
        const post = (body: object, headers: Record<string, string> = {}) =>
          fetch(server.url, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
            body: JSON.stringify(body),
          });
        const initialize = await post({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        });
        expect(initialize.status).toBe(500);
        expect(await initialize.json()).toMatchObject({
          jsonrpc: "2.0",
          error: { code: ErrorCode.InternalError, message: expect.stringContaining("database unreachable (1)") },
        });
        const discover = await post(
          {
            jsonrpc: "2.0",
            id: 2,
            method: "server/discover",
            params: {
              _meta: {
                "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
                "io.modelcontextprotocol/clientCapabilities": {},
              },
            },
          },
          { "mcp-protocol-version": MODERN_PROTOCOL_VERSION, "mcp-method": "server/discover" },
        );
        expect(discover.status).toBe(500);
        expect(await discover.json()).toMatchObject({
          error: { code: ErrorCode.InternalError, message: expect.stringContaining("database unreachable (2)") },
        });
        expect(calls).toBe(2);

        // The third try succeeds, and from then on setup is not run again.
        for (const era of ERAS) {
          const client = await server.connect(era);
          expect(jsonOf(await client.callTool("lifespan")).lifespan).toEqual({ db: { name: "pool", opened: 3 } });
        }
        expect(calls).toBe(3);
      } finally {
        await server.stop();
      }
    },
  );

  it("does not run close when setup never ran, and lifespan is empty without setup", async () => {
    const closed: unknown[] = [];
    const lazy = defineMcpHandler({
      name: "never-used",
      version: "1.0.0",
      setup: () => ({ db: { name: "pool", opened: 1 } }),
      close: (lifespan) => void closed.push(lifespan),
    });
    await lazy.close();
    expect(closed).toEqual([]);

    const seen: unknown[] = [];
    const server = await serve(defineMcpHandler({ name: "plain", version: "1.0.0", tools: [lifespanTool(seen)] }));
    try {
      for (const era of ERAS) {
        const client = await server.connect(era);
        expect(jsonOf(await client.callTool("lifespan")).lifespan).toEqual({});
      }
    } finally {
      await server.stop();
    }
  });
});
