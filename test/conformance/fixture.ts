/**
 * The conformance fixture server: every tool, resource and prompt the official conformance suite
 * drives, built only with mcp-h3's public API. `npm run fixture` serves it; the conformance tests
 * start it in-process.
 */
import { z } from "zod";
import {
  defineMcpHandler,
  type AuthIdentity,
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type McpEventHandler,
  type McpHandlerOptions,
  type TasksOptions,
} from "mcp-h3";
import { tasks } from "mcp-h3/tasks";
import { instanceTaskTools } from "./instance-task-tools.ts";
import { instanceTools } from "./instance-tools.ts";
import { fixtureApp } from "./app-tools.ts";
import { fixtureSkills } from "./fixture-skills.ts";
import { taskTools } from "./task-tools.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const NAME_FORM = {
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
} as const;
const OK_FORM = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } as const;
const COLOR_FORM = { type: "object", properties: { color: { type: "string" } }, required: ["color"] } as const;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The input schema of `json_schema_2020_12_tool` (also checked by the JSON Schema unit tests). */
export const JSON_SCHEMA_2020_12_INPUT = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // oxlint-disable-next-line unicorn/no-thenable -- a JSON Schema keyword, not a promise
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

const tools = [
  defineTool({
    name: "test_simple_text",
    description: "Returns a simple text response",
    handler: () => "This is a simple text response for testing.",
  }),
  defineTool({
    name: "test_image_content",
    description: "Returns an image",
    handler: () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),
  }),
  defineTool({
    name: "test_audio_content",
    description: "Returns audio",
    handler: () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] }),
  }),
  defineTool({
    name: "test_embedded_resource",
    description: "Returns an embedded resource",
    handler: () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    }),
  }),
  defineTool({
    name: "test_multiple_content_types",
    description: "Returns text, an image and a resource",
    handler: () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ],
    }),
  }),
  defineTool({
    name: "test_tool_with_logging",
    description: "Logs three messages while it runs",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      await mcp.log("info", "Tool execution started");
      await sleep(50);
      await mcp.log("info", "Tool processing data");
      await sleep(50);
      await mcp.log("info", "Tool execution completed");
      return "Logging test completed";
    },
  }),
  defineTool({
    name: "test_tool_with_progress",
    description: "Reports progress 0, 50 and 100 of 100",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      for (const step of [0, 50, 100]) {
        await mcp.progress(step, 100, `Step ${step}`);
        if (step < 100) await sleep(50);
      }
      return "Progress test completed";
    },
  }),
  defineTool({
    name: "test_error_handling",
    description: "Always fails",
    handler: () => {
      throw new Error("This tool intentionally returns an error for testing");
    },
  }),
  defineTool({
    name: "test_sampling",
    description: "Asks the client's model",
    input: z.object({ prompt: z.string() }),
    handler: async (event, { prompt }) => {
      const answer = await event.context.mcp!.sample("llm", {
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      const content = answer.content as { type?: string; text?: string };
      return `LLM response: ${content.type === "text" ? content.text : JSON.stringify(content)}`;
    },
  }),
  defineTool({
    name: "test_elicitation",
    description: "Asks the user for their information",
    input: z.object({ message: z.string() }),
    handler: async (event, { message }) => {
      const answer = await event.context.mcp!.elicit("user", message, {
        type: "object",
        properties: {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        },
        required: ["username", "email"],
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: "test_elicitation_sep1034_defaults",
    description: "Elicitation with default values",
    handler: async (event) => {
      const answer = await event.context.mcp!.elicit(
        "defaults",
        "Please review and update the form fields with defaults",
        {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: {
              type: "string",
              description: "User status",
              enum: ["active", "inactive", "pending"],
              default: "active",
            },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
        },
      );
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: "test_elicitation_sep1330_enums",
    description: "Elicitation with every enum form",
    handler: async (event) => {
      const answer = await event.context.mcp!.elicit("enums", "Please select options from the enum fields", {
        type: "object",
        properties: {
          untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            description: "Select one option with titles",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: {
            type: "string",
            description: "Select one option (legacy)",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            description: "Select multiple options",
            minItems: 1,
            maxItems: 3,
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            description: "Select multiple options with titles",
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features",
    input: JSON_SCHEMA_2020_12_INPUT,
    handler: (_event, args) => `Received: ${JSON.stringify(args)}`,
  }),
  defineTool({
    name: "test_reconnection",
    description: "Closes its stream mid-call; the result arrives after the client resumes",
    handler: async (event) => {
      event.context.mcp!.closeStream();
      await sleep(100);
      return "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.";
    },
  }),
  // Modern era (2026-07-28) fixtures.
  defineTool({
    name: "test_missing_capability",
    description: "Needs the client's sampling capability",
    handler: (event) => {
      event.context.mcp!.requireClientCapability("sampling");
      return "Success";
    },
  }),
  defineTool({
    name: "test_streaming_elicitation",
    description: "Asks for input: answered through input_required, never a request on the stream",
    handler: async (event) => {
      const answer = await event.context.mcp!.elicit("confirm", "Continue?", {
        type: "object",
        properties: { ok: { type: "boolean" } },
        required: ["ok"],
      });
      return `Confirmed: ${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: "test_logging_tool",
    description: "Logs; the log reaches only clients that asked for a level",
    handler: async (event) => {
      await event.context.mcp!.log("info", "Logged only when the request carries a log level");
      return "Logged";
    },
  }),
  defineTool({
    name: "test_trigger_tool_change",
    description: "Announces that the tool list changed",
    handler: async (event) => {
      await event.context.mcp!.notify.toolsChanged();
      return "Tools changed";
    },
  }),
  defineTool({
    name: "test_trigger_prompt_change",
    description: "Announces that the prompt list changed",
    handler: async (event) => {
      await event.context.mcp!.notify.promptsChanged();
      return "Prompts changed";
    },
  }),
  defineTool({
    name: "test_x_mcp_header",
    description: "Mirrors its region argument in the Mcp-Param-Region header",
    input: {
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "Region" } },
      required: ["region"],
    },
    handler: (_event, args) => `Region: ${String(args.region)}`,
  }),
  defineTool({
    name: "test_input_required_result_elicitation",
    description: "Asks for the user's name (MRTR)",
    handler: async (event) => {
      const answer = await event.context.mcp!.elicit("user_name", "What is your name?", NAME_FORM);
      return `Hello, ${answer.content?.name ?? "stranger"}!`;
    },
  }),
  defineTool({
    name: "test_input_required_result_sampling",
    description: "Asks the client's model (MRTR)",
    handler: async (event) => {
      const answer = await event.context.mcp!.sample("capital_question", {
        messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
        maxTokens: 100,
      });
      return `The model said: ${JSON.stringify(answer.content)}`;
    },
  }),
  defineTool({
    name: "test_input_required_result_list_roots",
    description: "Asks for the client's roots (MRTR)",
    handler: async (event) => {
      const { roots } = await event.context.mcp!.listRoots("client_roots");
      return `Found ${roots.length} root(s)`;
    },
  }),
  defineTool({
    name: "test_input_required_result_request_state",
    description: "Carries its own state across the rounds (MRTR)",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      const restored = mcp.state as { issued?: boolean } | undefined;
      mcp.state = { issued: true };
      await mcp.elicit("confirm", "Confirm?", OK_FORM);
      return restored?.issued ? "state-ok" : "state-missing";
    },
  }),
  defineTool({
    name: "test_input_required_result_multiple_inputs",
    description: "Asks for three inputs at once (MRTR)",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      const [name, greeting, { roots }] = await Promise.all([
        mcp.elicit("name", "What is your name?", NAME_FORM),
        mcp.sample("greeting", {
          messages: [{ role: "user", content: { type: "text", text: "Say hello" } }],
          maxTokens: 50,
        }),
        mcp.listRoots("roots"),
      ]);
      return `${String(name.content?.name)} / ${JSON.stringify(greeting.content)} / ${roots.length} root(s)`;
    },
  }),
  defineTool({
    name: "test_input_required_result_multi_round",
    description: "Asks for a name, then a colour, in two rounds (MRTR)",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      // The first answer travels in the state: the client resends only the answers of the last round.
      const saved = mcp.state as { name?: string } | undefined;
      const name = saved?.name ?? String((await mcp.elicit("step1", "What is your name?", NAME_FORM)).content?.name);
      mcp.state = { name };
      const color = await mcp.elicit("step2", "What is your favourite colour?", COLOR_FORM);
      return `${name} likes ${String(color.content?.color)}`;
    },
  }),
  defineTool({
    name: "test_input_required_result_tampered_state",
    description: "Signs its state; a tampered state is rejected (MRTR)",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      mcp.state = { step: "confirm" };
      await mcp.elicit("confirm", "Confirm?", OK_FORM);
      return "Confirmed";
    },
  }),
  defineTool({
    name: "test_input_required_result_capabilities",
    description: "Asks only for what the client can answer (MRTR)",
    handler: async (event) => {
      const mcp = event.context.mcp!;
      if (mcp.clientCapabilities?.elicitation) {
        const answer = await mcp.elicit("user_input", "Your input?", NAME_FORM);
        return `Elicited: ${JSON.stringify(answer.content)}`;
      }
      const answer = await mcp.sample("sample_input", {
        messages: [{ role: "user", content: { type: "text", text: "Give me an input" } }],
        maxTokens: 50,
      });
      return `Sampled: ${JSON.stringify(answer.content)}`;
    },
  }),
  // MCP Apps (issue 24): show_weather with its view, and the app-only refresh_weather.
  ...fixtureApp.tools,
];

const resources = [
  defineResource({
    uri: "test://static-text",
    name: "Static text",
    description: "A static text resource",
    mimeType: "text/plain",
    handler: () => "This is the content of the static text resource.",
  }),
  defineResource({
    uri: "test://static-binary",
    name: "Static binary",
    description: "A static PNG",
    mimeType: "image/png",
    handler: (_event, uri) => ({ uri: uri.href, mimeType: "image/png", blob: PNG }),
  }),
  defineResource({
    uri: "test://watched-resource",
    name: "Watched resource",
    description: "A resource clients subscribe to",
    mimeType: "text/plain",
    handler: () => "Watched resource content",
  }),
  defineResourceTemplate({
    uriTemplate: "test://template/{id}/data",
    name: "Template data",
    description: "Data for an id",
    mimeType: "application/json",
    handler: (_event, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  }),
  // The weather view (ui://weather/view.html) of show_weather.
  ...fixtureApp.resources,
];

const prompts = [
  definePrompt({
    name: "test_simple_prompt",
    description: "A simple prompt",
    handler: () => "This is a simple prompt for testing.",
  }),
  definePrompt({
    name: "test_prompt_with_arguments",
    description: "A prompt with two arguments",
    arguments: [
      { name: "arg1", description: "First argument", required: true },
      { name: "arg2", description: "Second argument", required: true },
    ],
    complete: {
      arg1: (value) => ["test", "testValue1", "other"].filter((candidate) => candidate.startsWith(value)),
    },
    handler: (_event, { arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  }),
  definePrompt({
    name: "test_prompt_with_embedded_resource",
    description: "A prompt embedding a resource",
    arguments: [{ name: "resourceUri", description: "URI of the resource", required: true }],
    handler: (_event, { resourceUri }) => [
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: resourceUri!, mimeType: "text/plain", text: "Embedded resource content for testing." },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ],
  }),
  definePrompt({
    name: "test_prompt_with_image",
    description: "A prompt with an image",
    handler: () => [
      { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }),
  definePrompt({
    name: "test_input_required_result_prompt",
    description: "A prompt that asks the user for context first (MRTR)",
    handler: async (event) => {
      const answer = await event.context.mcp!.elicit("user_context", "What context should the prompt use?", {
        type: "object",
        properties: { context: { type: "string" } },
        required: ["context"],
      });
      return `Use this context: ${String(answer.content?.context)}`;
    },
  }),
];

/** Static bearer tokens of the fixture's auth mode (`MCP_FIXTURE_AUTH=1`). */
export const FIXTURE_TOKENS: Readonly<Record<string, AuthIdentity>> = {
  "alice-token": { subject: "alice", scopes: ["read", "write"] },
  "bob-token": { subject: "bob", scopes: ["read", "write"] },
  "reader-token": { subject: "reader", scopes: ["read"] },
};

/** Fixture tools that change something (they announce list changes): they need `write` in auth mode. */
const CHANGING_TOOLS: ReadonlySet<string> = new Set(["test_trigger_tool_change", "test_trigger_prompt_change"]);

/**
 * Where a fixture instance keeps its state when several instances serve the same clients (the
 * shared stores and request-state secret), and its name in the answers of {@link instanceTools}.
 */
export interface FixtureDeployment extends Pick<McpHandlerOptions, "sessions" | "events" | "bus" | "requestState"> {
  instance: string;
  /** The options of `tasks()`: the shared task store, the lease. */
  tasks?: TasksOptions;
}

/**
 * Builds the fixture handler. With `auth.resourceMetadataUrl`, bearer auth is on with
 * {@link FIXTURE_TOKENS}: every request needs `read`, tools that change something need `write`.
 * With `deployment`, the handler runs on its stores and secret and serves {@link instanceTools} too.
 */
export function createFixtureHandler(
  auth?: { resourceMetadataUrl: string },
  deployment?: FixtureDeployment,
): McpEventHandler {
  return defineMcpHandler(fixtureOptions(auth, deployment));
}

/**
 * The fixture's options, as {@link createFixtureHandler} serves them; `taskOptions` are those of
 * `tasks()` where no deployment names them (examples/cloudflare passes its Durable Object's store).
 */
export function fixtureOptions(
  auth?: { resourceMetadataUrl: string },
  deployment?: FixtureDeployment,
  taskOptions?: TasksOptions,
): McpHandlerOptions {
  const own = auth
    ? tools.map((tool) => (CHANGING_TOOLS.has(tool.name) ? { ...tool, scopes: ["write"] } : tool))
    : tools;
  const { instance, tasks: deploymentTasks, ...stores } = deployment ?? { instance: "" };
  return {
    name: "mcp-h3-conformance-fixture",
    version: "1.0.0",
    logging: true,
    retryMs: 500,
    tools: deployment
      ? [...own, ...taskTools, ...instanceTools(instance), ...instanceTaskTools(instance)]
      : [...own, ...taskTools],
    extensions: [tasks(deploymentTasks ?? taskOptions), fixtureSkills()],
    resources,
    prompts,
    auth: auth && {
      validate: (token) => FIXTURE_TOKENS[token],
      resourceMetadataUrl: auth.resourceMetadataUrl,
      scopes: ["read"],
    },
    ...stores,
  };
}
