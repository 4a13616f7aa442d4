/**
 * Definitions as files (`mcp-h3/nuxt`, `mcp-h3/nitro`): each file under `mcp/tools/`, `mcp/resources/`,
 * `mcp/prompts/` or `mcp/apps/` default-exports one definition whose name may be left out; the
 * module names it after its file and compiles it with the library's own `defineTool` and kin.
 */
import type { McpAppOptions } from "./apps.ts";
import type {
  PromptOptions,
  ResourceOptions,
  ResourceTemplateOptions,
  SchemaInput,
  ToolOptions,
} from "./definitions.ts";
import type { McpHandlerOptions } from "./options.ts";

/** The folder a definition file lives in, and so the kind of definition it must export. */
export type McpFileKind = "tool" | "resource" | "prompt" | "app";

/** `T` with its `name` optional: a file's name stands in for it. */
export type NameOptional<T extends { name: string }> = Omit<T, "name"> & { name?: string };

/** Options of `defineMcpTool`: `defineTool`'s, the name optional. */
export type McpToolFileOptions<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
> = NameOptional<ToolOptions<I, O>>;

/** Options of `defineMcpResource`: `defineResource`'s (a `uri`) or `defineResourceTemplate`'s (a `uriTemplate`), the name optional. */
export type McpResourceFileOptions<V extends string = string> =
  NameOptional<ResourceOptions> | NameOptional<ResourceTemplateOptions<V>>;

/** Options of `defineMcpPrompt`: `definePrompt`'s, the name optional. */
export type McpPromptFileOptions<A extends string = string> = NameOptional<PromptOptions<A>>;

/** Options of the file form of `defineMcpApp`: `mcp-h3/apps`' `defineMcpApp`'s, the name optional. */
export type McpAppFileOptions<
  I extends SchemaInput | undefined = undefined,
  O extends SchemaInput | undefined = undefined,
> = NameOptional<McpAppOptions<I, O>>;

/**
 * What a definition file default-exports: the options, kept as written until the module names
 * and compiles them (a mistake in them is reported with the file's path).
 */
export interface McpFileDefinition<K extends McpFileKind = McpFileKind> {
  /** The kind of definition, named apart from a compiled definition's `kind`. */
  readonly mcpFile: K;
  readonly options: { name?: string };
}

/**
 * What the module's optional code file (`mcp/config.ts`) default-exports: handler options that are
 * code (auth `validate`, stores, `extensions`, hooks …), merged over the plain options of the `mcp`
 * config key. Definitions given here are served next to the files'.
 */
export type McpConfigFile = Partial<McpHandlerOptions>;
