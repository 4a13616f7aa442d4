/**
 * One descriptor per protocol method (src/protocol/methods.ts), and every place that decides
 * something per method agrees with it: each era's method table holds exactly the methods its
 * descriptors give it (their era, their capability, the extension that serves them), the
 * `Mcp-Name` source, MRTR eligibility and the state digest, the OpenTelemetry attributes, and over
 * real HTTP the scope check (403) and the modern stamp's cache hints.
 */
import { InMemorySpanExporter, SimpleSpanProcessor, BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, definePrompt, defineResource, defineTool, type McpHandlerOptions } from "../src/index.ts";
import type { McpEventHandler } from "../src/handler-types.ts";
import { otelHooks } from "../src/_entries/otel.ts";
import { tasks } from "../src/_entries/tasks.ts";
import type { RequestContext } from "../src/context/request-context.ts";
import { SESSION_METHODS } from "../src/legacy/serve/session-methods.ts";
import { InputRound } from "../src/modern/mrtr/mrtr.ts";
import { requestBinding } from "../src/modern/mrtr/request-binding.ts";
import { requestName } from "../src/protocol/jsonrpc.ts";
import { describeMethod, methodsOfEra, methodsServedBy, type MethodEra } from "../src/protocol/methods.ts";
import type { McpRequestInfo } from "../src/types/hooks.ts";
import { modernPost, staticAuth } from "./helpers/auth.ts";
import { startHost, type RunningHost } from "./helpers/hosts.ts";

const ERAS: readonly MethodEra[] = ["legacy", "modern"];

/** Every definition a method can use, each needing the scope `write`. */
const definitions = {
  tools: [defineTool({ name: "secret", description: "Needs write", scopes: ["write"], handler: () => "told" })],
  prompts: [definePrompt({ name: "secret", scopes: ["write"], arguments: [{ name: "topic" }], handler: () => "hi" })],
  resources: [defineResource({ uri: "secret://doc", name: "doc", scopes: ["write"], handler: () => "doc" })],
};

function handlerOf(options: Partial<McpHandlerOptions>): McpEventHandler {
  return defineMcpHandler({ name: "descriptors", version: "1.0.0", ...options });
}

/** The params that name the definitions above, whatever the method reads. */
const NAMING = {
  name: "secret",
  uri: "secret://doc",
  arguments: {},
  ref: { type: "ref/prompt", name: "secret" },
  argument: { name: "topic", value: "" },
};

describe("each era's method table", () => {
  it("holds every method of that era whose capability is declared or whose extension plugged it, and nothing else", () => {
    const handler = handlerOf({ ...definitions, logging: true, extensions: [tasks()] });
    const { tables, capabilities } = handler.engine.services;
    for (const era of ERAS) {
      const expected = [...methodsOfEra(era)]
        .filter(([, descriptor]) => descriptor.servedBy !== "lane")
        .filter(([, descriptor]) => descriptor.capability === undefined || descriptor.capability in capabilities)
        .map(([name]) => name);
      expect([...tables[era].keys()].sort(), era).toEqual(expected.sort());
    }
  });

  it("leaves out the methods of a capability the definitions do not declare", () => {
    for (const options of [{ tools: definitions.tools }, { prompts: definitions.prompts }, {}]) {
      const { tables, capabilities } = handlerOf(options).engine.services;
      for (const era of ERAS) {
        for (const [name, descriptor] of methodsOfEra(era)) {
          if (descriptor.servedBy !== "table") continue;
          const declared = descriptor.capability === undefined || descriptor.capability in capabilities;
          expect(tables[era].has(name), `${era} ${name}`).toBe(declared);
        }
      }
    }
  });

  it("has no method of the lanes: the legacy lane answers the session methods and initialize, the modern one its own", () => {
    expect([...SESSION_METHODS].sort()).toEqual([
      "initialize",
      "logging/setLevel",
      "ping",
      "resources/subscribe",
      "resources/unsubscribe",
    ]);
    expect([...methodsServedBy("modern", "lane")].sort()).toEqual(["server/discover", "subscriptions/listen"]);
  });
});

describe("what reads the descriptors", () => {
  const everyMethod = [...methodsOfEra("legacy").keys(), ...methodsOfEra("modern").keys(), "example/own"];

  it("Mcp-Name: a request names the param its descriptor says, and nothing without one", () => {
    const params = { name: "the-name", uri: "the://uri", taskId: "the-task" };
    for (const method of everyMethod) {
      const param = describeMethod(method)?.nameParam;
      expect(requestName(method, params), method).toBe(param === undefined ? undefined : params[param]);
    }
  });

  it("MRTR: only the methods whose descriptor says so may ask for input", async () => {
    for (const method of everyMethod) {
      const round = new InputRound({ key: { answered: true } });
      const asking = () => round.request({ method } as RequestContext, "key", "roots/list", {});
      if (describeMethod(method)?.inputRounds === undefined) expect(asking, method).toThrow(/may ask for input/);
      else await expect(asking(), method).resolves.toEqual({ answered: true });
    }
  });

  it("MRTR: a request state is bound to what the descriptor says identifies the request", () => {
    for (const [method, descriptor] of methodsOfEra("modern")) {
      if (descriptor.inputRounds === undefined) continue;
      const binding = (params: Record<string, unknown>) =>
        requestBinding(method, { name: "a", uri: "a://", ...params });
      const byUri = binding({ uri: "b://" }) !== binding({});
      const byName = binding({ name: "b" }) !== binding({});
      expect({ method, byUri, byName }).toEqual({
        method,
        byUri: descriptor.inputRounds === "uri",
        byName: descriptor.inputRounds === "name-and-arguments",
      });
    }
  });

  it("OpenTelemetry: the name goes under the descriptor's attribute, with its operation", () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const hooks = otelHooks({ tracer: provider.getTracer("descriptors") });
    for (const method of everyMethod) {
      const info = { method, name: "the-name", requestId: 1, protocolVersion: "2026-07-28" } as McpRequestInfo;
      hooks.onRequest!(info);
      hooks.onResponse!(info);
      const attributes = exporter.getFinishedSpans().at(-1)!.attributes;
      const otel = describeMethod(method)?.otel;
      const named = Object.keys(attributes).filter((key) => Object.is(attributes[key], "the-name"));
      expect(named, method).toEqual(otel ? [otel.nameAttribute] : []);
      expect(attributes["gen_ai.operation.name"], method).toBe(otel?.operation);
    }
  });
});

describe("over HTTP, each modern method as its descriptor says", () => {
  let server: RunningHost;
  let modernMethods: string[];

  beforeAll(async () => {
    const handler = handlerOf({ ...definitions, auth: staticAuth() });
    modernMethods = [...handler.engine.services.tables.modern.keys(), "server/discover"];
    server = await startHost("h3-v2", handler);
  });
  afterAll(async () => {
    await server.close();
  });

  it("checks the scopes of the definition it uses (403), and of none when it uses none", async () => {
    for (const method of modernMethods) {
      const answer = await modernPost(server.url, "reader-token", method, NAMING);
      expect(answer.status, `${method}: ${answer.text}`).toBe(describeMethod(method)?.definition ? 403 : 200);
    }
  });

  it("stamps cache hints on the results of the cacheable ones only", async () => {
    for (const method of modernMethods) {
      const answer = await modernPost(server.url, "alice-token", method, NAMING);
      const result = (answer.json as { result?: Record<string, unknown> }).result;
      expect(result, `${method}: ${answer.text}`).toBeDefined();
      expect("ttlMs" in result! && "cacheScope" in result!, method).toBe(describeMethod(method)?.cacheable === true);
    }
  });
});
