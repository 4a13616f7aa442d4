/**
 * mcp-h3/definitions: definitions as files, the runtime side of the modules `mcp-h3/nuxt` and
 * `mcp-h3/nitro`. They auto-import `defineMcpTool`, `defineMcpResource`, `defineMcpPrompt`,
 * `defineMcpApp` and `defineMcpConfig` from here, and their generated handler calls
 * `defineMcpFileHandler` with the files it found.
 */
import type { H3Event } from "h3";
import { compileFiles, type CompileApp, type DefinitionFile } from "../define/files.ts";
import { defineMcpHandler } from "../h3.ts";
import type { McpEventHandler } from "../handler-types.ts";
import type { McpExtension } from "../types/extensions.ts";
import type { McpConfigFile } from "../types/files.ts";
import type { McpHandlerOptions, PerRequest } from "../types/options.ts";

export {
  defineMcpTool,
  defineMcpResource,
  defineMcpPrompt,
  defineMcpApp,
  defineMcpConfig,
} from "../define/file-definitions.ts";
export { compileFiles } from "../define/files.ts";
export type { DefinitionFile, CompiledFiles, CompileApp } from "../define/files.ts";
export type {
  McpFileKind,
  McpFileDefinition,
  McpToolFileOptions,
  McpResourceFileOptions,
  McpPromptFileOptions,
  McpAppFileOptions,
  McpConfigFile,
  NameOptional,
} from "../types/files.ts";

/** What the modules' generated handler passes to {@link defineMcpFileHandler}. */
export interface McpFileHandlerInput {
  /** The plain options of the `mcp` config key. */
  options: Partial<McpHandlerOptions>;
  /** The default export of `mcp/config.ts`, when the app has one. */
  config?: McpConfigFile;
  /** The definition files, in a stable order. */
  files: readonly DefinitionFile[];
  /** `mcp-h3/apps`' `defineMcpApp`, when there are apps. */
  compileApp?: CompileApp;
  /**
   * Extensions the files bring, served after the code file's: the skills of `mcp/skills/` as one
   * `skills([...])`. The code file may not give one of the same name (it would be ignored).
   */
  extensions?: readonly McpExtension[];
}

/**
 * The handler of a module-built endpoint: the files compiled, the code file's options merged over
 * the config key's, the files' definitions served next to any the code file gives.
 */
export function defineMcpFileHandler(input: McpFileHandlerInput): McpEventHandler {
  const compiled = compileFiles(input.files, input.compileApp);
  const merged = { ...input.options, ...input.config } as Partial<McpHandlerOptions>;
  return defineMcpHandler({
    ...merged,
    extensions: withFileExtensions(merged.extensions, input.extensions),
    name: merged.name ?? "mcp-h3",
    version: merged.version ?? "0.0.0",
    tools: join(compiled.tools, merged.tools),
    resources: join(compiled.resources, merged.resources),
    prompts: join(compiled.prompts, merged.prompts),
  });
}

/** The files' definitions followed by the code file's, which may be a list or a function of the request. */
function join<T>(files: T[], given: PerRequest<T> | undefined): PerRequest<T> {
  if (given === undefined) return files;
  if (Array.isArray(given)) return [...files, ...given];
  return async (event: H3Event) => [...files, ...(await given(event))];
}

/**
 * The code file's extensions followed by those the files bring; one of the same name in both is
 * refused (extensions plug in once by name: the files' would be dropped without a word).
 */
export function withFileExtensions(
  given: readonly McpExtension[] | undefined,
  files: readonly McpExtension[] | undefined,
): McpExtension[] | undefined {
  if (files === undefined || files.length === 0) return given === undefined ? undefined : [...given];
  for (const extension of files) {
    if (given?.some((other) => other.name === extension.name)) {
      throw new Error(
        `mcp-h3: mcp/config.ts gives the extension ${extension.name}, and the folders serve it too (mcp/skills/): serve the skills one way, as folders or in mcp/config.ts`,
      );
    }
  }
  return [...(given ?? []), ...files];
}
