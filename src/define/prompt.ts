/** `definePrompt()`: a prompt compiled once — arguments checked, listing built. */
import type { McpEvent } from "../types/context.ts";
import { echoValue } from "../protocol/echo.ts";
import { INVALID_PARAMS, McpError } from "../protocol/errors.ts";
import { isObject } from "../protocol/jsonrpc.ts";
import { completeFrom } from "./complete.ts";
import { toGetPromptResult } from "./content.ts";
import { buildListing } from "./listing.ts";
import { accessRules } from "./access.ts";
import type { PromptDefinition, PromptOptions } from "../types/definitions.ts";

/**
 * Defines a prompt. Its arguments are strings on the wire: a non-string value, or a missing required
 * argument, is answered with a JSON-RPC error (-32602) before the handler runs. The handler may return a
 * string (one user message), an array of messages or a full `GetPromptResult`.
 *
 * @example
 * const review = definePrompt({
 *   name: "review",
 *   description: "Review a piece of code",
 *   arguments: [{ name: "code", required: true }, { name: "language" }],
 *   handler: (event, { code, language }) => `Review this ${language ?? ""} code:\n${code}`,
 * });
 */
export function definePrompt<A extends string = string>(options: PromptOptions<A>): PromptDefinition {
  const { name, description, handler } = options;
  if (typeof name !== "string" || name === "") throw new Error("A prompt needs a non-empty name.");
  const declared = options.arguments ?? [];
  const required: string[] = [];
  const seen = new Set<string>();
  for (const argument of declared) {
    if (typeof argument.name !== "string" || argument.name === "") {
      throw new Error(`Prompt "${name}": every argument needs a non-empty name.`);
    }
    if (seen.has(argument.name)) throw new Error(`Prompt "${name}": the argument "${argument.name}" appears twice.`);
    seen.add(argument.name);
    if (argument.required === true) required.push(argument.name);
  }
  const listing = buildListing({
    name,
    title: options.title,
    description,
    arguments:
      options.arguments === undefined
        ? undefined
        : declared.map((argument) =>
            buildListing({
              name: argument.name,
              title: argument.title,
              description: argument.description,
              required: argument.required,
            }),
          ),
    icons: options.icons,
    _meta: options._meta,
  });
  const completers = options.complete;

  return {
    kind: "prompt",
    ...accessRules(options, `Prompt "${options.name}"`),
    name,
    listing,
    async get(event, args) {
      const given = checkArguments(name, args, required);
      const value = await handler(event as McpEvent, given as Partial<Record<A, string>>);
      return toGetPromptResult(value, description);
    },
    complete(event, argument, value, context) {
      return completeFrom(completers, event, argument, value, context);
    },
  };
}

/** The arguments as sent, once every value is a string and every required name is there. */
function checkArguments(prompt: string, args: unknown, required: string[]): Record<string, string> {
  if (args === undefined || args === null) args = {};
  if (!isObject(args)) {
    throw new McpError(INVALID_PARAMS, `Arguments for prompt ${prompt} must be an object of strings`);
  }
  // Own keys only: an argument named `__proto__` or `constructor` is plain data.
  for (const key of Object.keys(args)) {
    if (typeof args[key] !== "string") {
      throw new McpError(INVALID_PARAMS, `Argument ${echoValue(key)} for prompt ${prompt} must be a string`);
    }
  }
  for (const key of required) {
    if (!Object.hasOwn(args, key)) {
      throw new McpError(INVALID_PARAMS, `Missing required argument "${key}" for prompt ${prompt}`);
    }
  }
  return args as Record<string, string>;
}
