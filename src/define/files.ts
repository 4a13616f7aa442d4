/**
 * The file forms of the definitions (`defineMcpTool`, `defineMcpResource`, `defineMcpPrompt`,
 * `defineMcpApp`): they keep the options as written, and `compileFiles` names each after its file
 * and compiles it with `defineTool` and kin, reporting a mistake with the file's path.
 */
import type { McpApp } from "../types/apps.ts";
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from "../types/definitions.ts";
import type { McpFileDefinition, McpFileKind } from "../types/files.ts";
import { definePrompt } from "./prompt.ts";
import { defineResource, defineResourceTemplate } from "./resource.ts";
import { defineTool } from "./tool.ts";

/** One definition file, as the module's generated code lists it. */
export interface DefinitionFile {
  /** The folder's kind: what the file must export. */
  kind: McpFileKind;
  /** The name the file gives (its base name), used when the definition gives none. */
  name: string;
  /** The file's path, relative to the app's root: every message names it. */
  file: string;
  /** The file's default export. */
  definition: unknown;
}

/** The definitions compiled from the files, ready for `defineMcpHandler`. */
export interface CompiledFiles {
  tools: ToolDefinition[];
  resources: (ResourceDefinition | ResourceTemplateDefinition)[];
  prompts: PromptDefinition[];
}

/** What the generated code passes for apps: `mcp-h3/apps`' `defineMcpApp` (imported only when there are apps). */
export type CompileApp = (options: never) => McpApp;

const EXPORTS: Record<McpFileKind, string> = {
  tool: "defineMcpTool(...)",
  resource: "defineMcpResource(...)",
  prompt: "defineMcpPrompt(...)",
  app: "defineMcpApp(...)",
};

/**
 * Names and compiles the definition files. A file whose default export is not a definition of its
 * folder's kind, a definition that fails its checks, or two definitions of one kind with one name
 * throw an error that names the file(s).
 */
export function compileFiles(files: readonly DefinitionFile[], compileApp?: CompileApp): CompiledFiles {
  const compiled: CompiledFiles = { tools: [], resources: [], prompts: [] };
  const owners = new Map<string, string>();
  const claim = (key: string, label: string, file: string): void => {
    const owner = owners.get(key);
    if (owner !== undefined) throw new Error(`mcp-h3: ${file} and ${owner} both define the ${label}`);
    owners.set(key, file);
  };
  for (const entry of files) {
    const definition = entry.definition as Partial<McpFileDefinition> | undefined;
    if (definition?.mcpFile !== entry.kind || typeof definition.options !== "object" || definition.options === null) {
      throw new Error(
        `mcp-h3: ${entry.file} must default-export ${EXPORTS[entry.kind]}, the ${entry.kind} of its folder; ${describe(definition)}`,
      );
    }
    const options = { ...definition.options, name: definition.options.name ?? entry.name };
    try {
      if (entry.kind === "tool") {
        claim(`tool ${options.name}`, `tool "${options.name}"`, entry.file);
        compiled.tools.push(defineTool(options as never));
      } else if (entry.kind === "prompt") {
        claim(`prompt ${options.name}`, `prompt "${options.name}"`, entry.file);
        compiled.prompts.push(definePrompt(options as never));
      } else if (entry.kind === "resource") {
        const resource =
          "uriTemplate" in options ? defineResourceTemplate(options as never) : defineResource(options as never);
        const address = "uriTemplate" in resource ? resource.uriTemplate : resource.uri;
        claim(`resource ${address}`, `resource ${address}`, entry.file);
        compiled.resources.push(resource);
      } else {
        if (compileApp === undefined) throw new Error("apps need mcp-h3/apps");
        claim(`tool ${options.name}`, `tool "${options.name}"`, entry.file);
        const app = compileApp(options as never);
        compiled.tools.push(app.tool);
        compiled.resources.push(app.view);
      }
    } catch (error) {
      if (error instanceof Error && error.message.startsWith(`mcp-h3: ${entry.file}`)) throw error;
      throw new Error(`mcp-h3: ${entry.file}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  }
  return compiled;
}

/** What a wrong default export is, in words. */
function describe(value: Partial<McpFileDefinition> | undefined): string {
  if (value === undefined) return "it has no default export";
  if (typeof value.mcpFile === "string")
    return `it exports ${EXPORTS[value.mcpFile as McpFileKind] ?? "something else"}`;
  return "its default export is not made by one of them";
}
