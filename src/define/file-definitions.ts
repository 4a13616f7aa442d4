/**
 * `defineMcpTool`, `defineMcpResource`, `defineMcpPrompt`, `defineMcpApp` and `defineMcpConfig`:
 * what a definition file (or the code file `mcp/config.ts`) default-exports under the modules
 * `mcp-h3/nuxt` and `mcp-h3/nitro`, which auto-import them. Each keeps the options as written; the
 * module's generated handler names the definition after its file and compiles it.
 */
import type { ResourceOptions, ResourceTemplateOptions, SchemaInput } from "../types/definitions.ts";
import type {
  McpAppFileOptions,
  McpConfigFile,
  McpFileDefinition,
  McpPromptFileOptions,
  McpResourceFileOptions,
  McpToolFileOptions,
  NameOptional,
} from "../types/files.ts";

/**
 * A tool, in a file under `mcp/tools/`: what `defineTool` takes, the name optional (the file's
 * name, without its extension, stands in for it).
 *
 * @example
 * // server/mcp/tools/echo.ts: served as the tool "echo"
 * export default defineMcpTool({
 *   description: "Echo the text back",
 *   input: z.object({ text: z.string() }),
 *   handler: (event, { text }) => text,
 * });
 */
export function defineMcpTool<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
>(options: McpToolFileOptions<I, O>): McpFileDefinition<"tool"> {
  return { mcpFile: "tool", options };
}

/**
 * A resource, in a file under `mcp/resources/`: what `defineResource` takes (a fixed `uri`) or
 * `defineResourceTemplate` (a `uriTemplate`), the name optional.
 */
export function defineMcpResource(options: NameOptional<ResourceOptions>): McpFileDefinition<"resource">;
export function defineMcpResource<V extends string = string>(
  options: NameOptional<ResourceTemplateOptions<V>>,
): McpFileDefinition<"resource">;
export function defineMcpResource(options: McpResourceFileOptions): McpFileDefinition<"resource"> {
  return { mcpFile: "resource", options };
}

/** A prompt, in a file under `mcp/prompts/`: what `definePrompt` takes, the name optional. */
export function defineMcpPrompt<A extends string = string>(
  options: McpPromptFileOptions<A>,
): McpFileDefinition<"prompt"> {
  return { mcpFile: "prompt", options };
}

/**
 * An MCP App, in a file under `mcp/apps/`: what `mcp-h3/apps`' `defineMcpApp` takes (a tool and its
 * `view`), the name optional. Served as the tool and its `ui://` view.
 */
export function defineMcpApp<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
>(options: McpAppFileOptions<I, O>): McpFileDefinition<"app"> {
  return { mcpFile: "app", options };
}

/**
 * The handler options that are code (auth `validate`, stores, `extensions`, hooks …), as the
 * default export of `mcp/config.ts`: merged over the plain options of the `mcp` config key.
 *
 * @example
 * // server/mcp/config.ts
 * import { tasks } from "mcp-h3/tasks";
 * export default defineMcpConfig({ extensions: [tasks()] });
 */
export function defineMcpConfig(config: McpConfigFile): McpConfigFile {
  return config;
}
