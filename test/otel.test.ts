/**
 * mcp-h3/otel over real HTTP on h3 v2 and h3 v1, with the real clients of both eras (SDK 1.x on a
 * legacy session, 2.x pinned to 2026-07-28). MCP carries W3C trace context in `params._meta`, so a
 * client that propagates a trace puts `traceparent` / `tracestate` there; the server span of each
 * request must continue that trace. Spans are collected by the SDK's in-memory exporter.
 */
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ErrorCode,
  McpError,
  defineMcpHandler,
  definePrompt,
  defineResource,
  defineTool,
  type McpEventHandler,
} from "../src/index.ts";
import { otelHooks } from "../src/_entries/otel.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { ERAS, connectEra, type CallResult, type EraClient } from "./helpers/era-clients.ts";
import { MODERN_PROTOCOL_VERSION } from "./helpers/modern-clients.ts";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** A fresh incoming trace: what a client's own span would propagate. */
function incoming(flags = "01") {
  const traceId = hex(16);
  const parentId = hex(8);
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-${flags}` };
}

const TRACESTATE = "vendor=abc,other=1";

function tools() {
  return [
    defineTool({
      name: "weather",
      description: "Current weather",
      input: z.object({ city: z.string() }),
      handler: (_event, { city }) => `Sunny in ${city}`,
    }),
    defineTool({
      name: "fail",
      description: "Fails with a JSON-RPC error",
      handler: () => {
        throw new McpError(ErrorCode.InvalidParams, "No such city");
      },
    }),
  ];
}

function buildHandler(): McpEventHandler {
  return defineMcpHandler({
    name: "otel",
    version: "1.0.0",
    tools: tools(),
    prompts: [definePrompt({ name: "named", handler: () => "hello" })],
    resources: [defineResource({ uri: "memo://note", name: "note", handler: () => "note" })],
    hooks: otelHooks({ tracer: provider.getTracer("t") }),
  });
}

function textOf(result: CallResult): string {
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  return (result.content as { text: string }[])[0]!.text;
}

/** The finished spans named `name`, once `count` of them are there. */
async function spansNamed(name: string, count = 1): Promise<ReadableSpan[]> {
  await expect.poll(() => exporter.getFinishedSpans().filter((span) => span.name === name).length).toBe(count);
  return exporter.getFinishedSpans().filter((span) => span.name === name);
}

describe.each(HOSTS)("mcp-h3/otel on %s", (host) => {
  let server: RunningHost;
  const open: EraClient[] = [];

  beforeAll(async () => {
    server = await startHost(host, buildHandler());
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    exporter.reset();
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})));
  });

  describe.each(ERAS)("%s era", (era) => {
    async function connect(): Promise<EraClient> {
      const client = await connectEra(era, server.url);
      open.push(client);
      return client;
    }

    it("continues the client's trace from _meta.traceparent in a SERVER span", async () => {
      const client = await connect();
      const parent = incoming();
      const result = await client.callTool(
        "weather",
        { city: "Oslo" },
        { meta: { traceparent: parent.traceparent, tracestate: TRACESTATE } },
      );
      expect(textOf(result)).toBe("Sunny in Oslo");
      // The trace context went over the wire in params._meta, as MCP carries it.
      const sent = client.posted.find((message) => message.method === "tools/call")!;
      expect(sent.params!._meta).toMatchObject({ traceparent: parent.traceparent, tracestate: TRACESTATE });

      const [span] = (await spansNamed("tools/call weather")) as [ReadableSpan];
      // Same trace, child of the client's span, with its own id.
      expect(span.spanContext().traceId).toBe(parent.traceId);
      expect(span.parentSpanContext?.traceId).toBe(parent.traceId);
      expect(span.parentSpanContext?.spanId).toBe(parent.parentId);
      expect(span.parentSpanContext?.isRemote).toBe(true);
      expect(span.spanContext().spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(span.spanContext().spanId).not.toBe(parent.parentId);
      // The vendor state travels on with the trace.
      expect(span.spanContext().traceState?.serialize()).toBe(TRACESTATE);

      expect(span.kind).toBe(SpanKind.SERVER);
      expect(span.instrumentationScope.name).toBe("t");
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.ended).toBe(true);
      expect(span.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "weather",
        "gen_ai.operation.name": "execute_tool",
        "mcp.protocol.version": era === "legacy" ? "2025-11-25" : MODERN_PROTOCOL_VERSION,
        "jsonrpc.request.id": String(sent.id),
      });
      if (era === "legacy") {
        expect(client.sessionId).toBeTruthy();
        expect(span.attributes["mcp.session.id"]).toBe(client.sessionId);
      } else {
        expect(span.attributes).not.toHaveProperty("mcp.session.id");
      }
      expect(span.attributes).not.toHaveProperty("error.type");
    });

    it("marks a failed call as an error, still as a child of the client's span", async () => {
      const client = await connect();
      const parent = incoming();
      const failure = await client.callTool("fail", {}, { meta: { traceparent: parent.traceparent } }).then(
        () => undefined,
        (error: { code: number }) => error,
      );
      expect(failure?.code).toBe(ErrorCode.InvalidParams);

      const [span] = (await spansNamed("tools/call fail")) as [ReadableSpan];
      expect(span.spanContext().traceId).toBe(parent.traceId);
      expect(span.parentSpanContext?.spanId).toBe(parent.parentId);
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "No such city" });
      expect(span.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "fail",
        "error.type": String(ErrorCode.InvalidParams),
      });
    });

    it("starts a new root trace for a request without traceparent", async () => {
      const client = await connect();
      const parent = incoming();
      expect(textOf(await client.callTool("weather", { city: "Rome" }))).toBe("Sunny in Rome");
      expect(textOf(await client.callTool("weather", { city: "Rome" }))).toBe("Sunny in Rome");
      // A malformed traceparent is ignored as if absent (and an all-zero trace id is invalid).
      const malformed = [`00-${parent.traceId}-nothex!!nothex!!-01`, `00-${"0".repeat(32)}-${parent.parentId}-01`];
      for (const traceparent of malformed) {
        expect(textOf(await client.callTool("weather", { city: "Rome" }, { meta: { traceparent } }))).toBe(
          "Sunny in Rome",
        );
      }
      const spans = await spansNamed("tools/call weather", 4);
      for (const span of spans) {
        expect(span.parentSpanContext).toBeUndefined();
        expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(span.spanContext().traceId).not.toBe(parent.traceId);
        expect(span.spanContext().traceId).not.toBe("0".repeat(32));
      }
      // Each request is a trace of its own.
      expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(4);
    });

    it("honours the sampled flag of the incoming trace", async () => {
      const client = await connect();
      // Flags 00: the client did not sample its span, so the default parent-based sampler records
      // nothing here. Were the traceparent ignored, a sampled root span would be exported.
      expect(
        textOf(
          await client.callTool("weather", { city: "Bern" }, { meta: { traceparent: incoming("00").traceparent } }),
        ),
      ).toBe("Sunny in Bern");
      // A sampled call after it, to know the first one had its chance to be exported.
      const sampled = incoming();
      expect(
        textOf(await client.callTool("weather", { city: "Bern" }, { meta: { traceparent: sampled.traceparent } })),
      ).toBe("Sunny in Bern");
      const [span] = (await spansNamed("tools/call weather")) as [ReadableSpan];
      expect(span.spanContext().traceId).toBe(sampled.traceId);
    });

    it("names prompt and resource spans after their target", async () => {
      const client = await connect();
      const parent = incoming();
      await client.getPrompt("named", {}, { traceparent: parent.traceparent });
      await client.readResource("memo://note", { traceparent: parent.traceparent });
      const [prompt] = (await spansNamed("prompts/get named")) as [ReadableSpan];
      const [resource] = (await spansNamed("resources/read memo://note")) as [ReadableSpan];
      expect(prompt.attributes).toMatchObject({ "mcp.method.name": "prompts/get", "gen_ai.prompt.name": "named" });
      expect(resource.attributes).toMatchObject({
        "mcp.method.name": "resources/read",
        "mcp.resource.uri": "memo://note",
      });
      for (const span of [prompt, resource]) {
        expect(span.kind).toBe(SpanKind.SERVER);
        expect(span.spanContext().traceId).toBe(parent.traceId);
        expect(span.parentSpanContext?.spanId).toBe(parent.parentId);
      }
    });
  });
});

describe("otelHooks() without a tracer", () => {
  it("uses the globally registered provider, looked up per request", async () => {
    const globalExporter = new InMemorySpanExporter();
    const globalProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(globalExporter)] });
    // The handler is defined before the provider is registered, as happens when an app module
    // loads before its telemetry setup.
    const server = await startHost(
      "h3-v2",
      defineMcpHandler({ name: "otel-global", version: "1.0.0", tools: tools(), hooks: otelHooks() }),
    );
    trace.setGlobalTracerProvider(globalProvider);
    const client = await connectEra("legacy", server.url);
    try {
      const parent = incoming();
      expect(
        textOf(await client.callTool("weather", { city: "Kyiv" }, { meta: { traceparent: parent.traceparent } })),
      ).toBe("Sunny in Kyiv");
      await expect
        .poll(() => globalExporter.getFinishedSpans().filter((span) => span.name === "tools/call weather").length)
        .toBe(1);
      const span = globalExporter.getFinishedSpans().find((span) => span.name === "tools/call weather")!;
      expect(span.instrumentationScope.name).toBe("mcp-h3");
      expect(span.parentSpanContext?.spanId).toBe(parent.parentId);
    } finally {
      trace.disable();
      await client.close();
      await server.close();
    }
  });
});
