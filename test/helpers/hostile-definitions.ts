/**
 * The definitions of the hostile suite's servers and of the fuzzer's (no test framework imported, so
 * the fuzzer's command line can load it): tools that record what ran, one that elicits, one that
 * streams, resources and a prompt.
 */
import { z } from "zod";
import {
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  type McpHandlerOptions,
} from "../../src/index.ts";

const NAME_FORM = z.object({ name: z.string() });

/** The definitions every hostile server serves; `effects` records what ran. */
export function hostileDefinitions(effects: string[]): Pick<McpHandlerOptions, "tools" | "resources" | "prompts"> {
  const log = (effect: string): void => void effects.push(effect);
  return {
    tools: [
      defineTool({
        name: "record",
        input: z.object({ n: z.number() }),
        handler: (_event, { n }) => {
          log(`record:${n}`);
          return `recorded ${n}`;
        },
      }),
      defineTool({
        name: "echo",
        input: { type: "object", properties: { text: { type: "string" } } },
        handler: (_event, args) => {
          log("echo");
          return JSON.stringify(args);
        },
      }),
      defineTool({
        name: "regional",
        input: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
        handler: (_event, args) => {
          log(`regional:${String(args.region)}`);
          return "deployed";
        },
      }),
      defineTool({
        name: "ask",
        input: { type: "object" },
        handler: async (event) => {
          const mcp = event.context.mcp!;
          log("ask:start");
          try {
            mcp.state = { asked: "name" };
            const answer = await mcp.elicit("name", "Your name?", NAME_FORM);
            log(`ask:done:${String(answer.content?.name)}`);
            return `Hello ${String(answer.content?.name)}`;
          } finally {
            log("ask:finally");
          }
        },
      }),
      defineTool({
        name: "circular-state",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          const state: Record<string, unknown> = { a: 1 };
          state.self = state;
          mcp.state = state;
          await mcp.elicit("name", "Your name?", NAME_FORM);
          return "never";
        },
      }),
      defineTool({
        name: "bigint-state",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          mcp.state = { big: 10n };
          await mcp.elicit("name", "Your name?", NAME_FORM);
          return "never";
        },
      }),
      defineTool({
        name: "chatty",
        handler: async (event) => {
          const mcp = event.context.mcp!;
          await mcp.progress(1, 2, "half");
          await mcp.log("info", "a line");
          await mcp.progress(2, 2, "done");
          log("chatty");
          return "chatted";
        },
      }),
    ],
    resources: [
      defineResource({ uri: "docs://readme", name: "readme", handler: () => "# Readme" }),
      defineResourceTemplate({ uriTemplate: "items://{id}", name: "item", handler: (_event, { id }) => `item ${id}` }),
    ],
    prompts: [
      definePrompt({
        name: "greet",
        arguments: [{ name: "name", required: true }],
        handler: (_event, { name }) => `Hello ${name}`,
      }),
    ],
  };
}
