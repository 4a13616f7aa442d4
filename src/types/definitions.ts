/** Public shapes of tool, resource and prompt definitions. */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { H3Event } from "h3";
import type { McpEvent } from "./context.ts";
import type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Icon,
  JsonSchema,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
  ToolAnnotations,
} from "../protocol/types.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { CacheHints } from "./cache-hints.ts";

/** A schema given either as a Standard Schema (zod 4, valibot, …) or as a plain JSON Schema object. */
export type SchemaInput = StandardSchemaV1 | JsonSchema;

/** The type a schema validates to: inferred for Standard Schemas, a plain record for JSON Schema. */
type InferSchema<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : Record<string, unknown>;

/** Result of validating a value against a compiled schema. */
export type Validation<T> = { ok: true; value: T } | { ok: false; message: string };

/** A schema compiled once at definition time. */
export interface CompiledSchema<T = unknown> {
  /** The JSON Schema that goes on the wire, byte-for-byte as given for plain JSON Schemas. */
  readonly jsonSchema: JsonSchema;
  /** Validates (and for Standard Schemas, transforms) a value. */
  validate(value: unknown): Validation<T> | Promise<Validation<T>>;
}

/** What a tool handler may return: a string (one text item), content blocks, a full result, or structured data. */
/** Who may use a definition: options shared by tools, resources, templates and prompts. */
export interface AccessOptions {
  /**
   * Scopes the bearer token needs (with the `auth` option): without them a call, read or get answers
   * 403 `insufficient_scope`, and lists leave the definition out. Ignored with auth off.
   */
  scopes?: string[];
  /**
   * Decides per request whether the definition exists at all: `false` leaves it out of lists, and a
   * call answers as for an unknown name. It runs with `event.context.mcp` set to the request's
   * context (its era, its client's capabilities, its principal) in both eras; on a legacy session's
   * GET stream, where `resources/updated` is checked against the stream's own request, it is unset.
   *
   * @example
   * defineTool({ name: "refresh-view", enabled: clientSupportsApps, handler: () => "refreshed" }); // apps only
   */
  enabled?: (event: H3Event) => boolean | Promise<boolean>;
}

/** The compiled form of {@link AccessOptions}. */
export interface AccessRules {
  /** Scopes needed, or undefined when none are. */
  readonly scopes: readonly string[] | undefined;
  readonly enabled: ((event: H3Event) => boolean | Promise<boolean>) | undefined;
}

export type ToolReturn = string | ContentBlock | ContentBlock[] | CallToolResult | JsonObject | undefined | void;

/** Options of {@link defineTool}. */
export interface ToolOptions<
  I extends SchemaInput | undefined,
  O extends SchemaInput | undefined,
> extends AccessOptions {
  name: string;
  title?: string;
  description?: string;
  /** Arguments: a Standard Schema (converted to JSON Schema once) or a plain JSON Schema, kept verbatim. */
  input?: I;
  /** Structured output: fills `structuredContent` and is validated before it is sent. */
  output?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /**
   * Whether the tool may (`"optional"`) or must (`"required"`) run as a task, long work a client
   * polls for later; absent: it never does. Needs the tasks extension (`mcp-h3/tasks`): without it
   * the option changes nothing. Inside, `event.context.mcp.task` says the call runs as a task.
   */
  task?: TaskSupport;
  handler: (
    event: McpEvent,
    args: I extends SchemaInput ? InferSchema<I> : Record<string, never>,
  ) =>
    | (O extends SchemaInput ? InferSchema<O> | CallToolResult : ToolReturn)
    | Promise<O extends SchemaInput ? InferSchema<O> | CallToolResult : ToolReturn>;
}

/** Whether a tool may (`"optional"`) or must (`"required"`) run as a task (see {@link ToolOptions.task}). */
export type TaskSupport = "optional" | "required";

/**
 * One `x-mcp-header` declaration of a tool's input schema (modern standard headers): the argument at
 * `path` travels as the `Mcp-Param-{header}` HTTP header too, and the server checks the two agree.
 */
export interface HeaderParam {
  /** The declared name, as written (header names compare case-insensitively). */
  readonly header: string;
  /** Property names from the root of the arguments object down to the argument. */
  readonly path: readonly string[];
  /** The property's JSON Schema type: how the header's text compares with the body's value. */
  readonly type: "string" | "integer" | "boolean";
}

/** A tool, compiled. */
export interface ToolDefinition extends AccessRules {
  readonly kind: "tool";
  readonly name: string;
  /** The entry for `tools/list`, built once. */
  readonly listing: JsonObject;
  readonly input: CompiledSchema<JsonObject>;
  readonly output: CompiledSchema<JsonObject> | undefined;
  /** The `x-mcp-header` declarations of the input schema, checked at definition time (empty when none). */
  readonly headerParams: readonly HeaderParam[];
  /** The `task` option: whether the tool may or must run as a task (undefined: never). */
  readonly task: TaskSupport | undefined;
  /** Runs the handler on validated arguments and shapes its return into a `CallToolResult`. */
  call(event: H3Event, args: JsonObject): CallToolResult | Promise<CallToolResult>;
}

/** What a resource reader may return: text, bytes, one or more contents, or a full result. */
export type ResourceReturn =
  | string
  | Uint8Array
  | ResourceContents
  | ResourceContents[]
  | ReadResourceResult
  /** Nothing at this URI: answered as "resource not found" with the code of the request's era. */
  | undefined
  | null;

/**
 * What a resource is listed with beside its address (`uri`, or a template's `uriTemplate`): the
 * fields of a resource's or a template's options, and of the entries a template's `list` gives,
 * that `resources/list` and `resources/templates/list` show.
 */
export interface ResourceDescription {
  name: string;
  title?: string;
  description?: string;
  /** The type of its contents; fills in for text and bytes a reader returns. */
  mimeType?: string;
  icons?: Icon[];
  annotations?: JsonObject;
  _meta?: JsonObject;
}

/** Options of {@link defineResource}: one fixed URI. */
export interface ResourceOptions extends AccessOptions, ResourceDescription {
  uri: string;
  /** Its size in bytes, when known before reading it. */
  size?: number;
  /** Modern cache hints of `resources/read` (`ttlMs`, `cacheScope`). */
  cacheHints?: CacheHints;
  /** `false`: served by its URI (read, subscribed to) but left out of `resources/list`. Default `true`. */
  listed?: boolean;
  handler: (event: McpEvent, uri: URL) => ResourceReturn | Promise<ResourceReturn>;
}

export interface ResourceDefinition extends AccessRules {
  readonly kind: "resource";
  /** Modern cache hints for `resources/read` of this resource. */
  readonly cacheHints: CacheHints | undefined;
  readonly uri: string;
  readonly name: string;
  readonly listing: JsonObject;
  /** `false`: left out of `resources/list` (see {@link ResourceOptions.listed}). */
  readonly listed?: boolean;
  read(event: H3Event, uri: string): Promise<ReadResourceResult>;
}

/** Options of {@link defineResourceTemplate}: an RFC 6570 level-1 URI template such as `file:///{path}`. */
export interface ResourceTemplateOptions<V extends string = string> extends AccessOptions, ResourceDescription {
  uriTemplate: string;
  /** Modern cache hints of `resources/read` (`ttlMs`, `cacheScope`). */
  cacheHints?: CacheHints;
  /** Concrete resources of this template for `resources/list`. */
  list?: (event: McpEvent) => ResourceListEntry[] | Promise<ResourceListEntry[]>;
  /** Completion values for one variable, given what was typed so far. */
  complete?: {
    [K in V]?: (
      value: string,
      context: { arguments: Record<string, string> },
      event: McpEvent,
    ) => string[] | Promise<string[]>;
  };
  handler: (event: McpEvent, variables: Record<V, string>, uri: URL) => ResourceReturn | Promise<ResourceReturn>;
}

/** One concrete resource listed by a template's `list`. */
export interface ResourceListEntry extends ResourceDescription {
  uri: string;
  /** Its size in bytes, when known before reading it. */
  size?: number;
  [key: string]: unknown;
}

export interface ResourceTemplateDefinition extends AccessRules {
  readonly kind: "resourceTemplate";
  /** Modern cache hints for `resources/read` of this template's resources. */
  readonly cacheHints: CacheHints | undefined;
  readonly uriTemplate: string;
  readonly name: string;
  readonly listing: JsonObject;
  /** Variables when `uri` matches the template, else undefined. */
  match(uri: string): Record<string, string> | undefined;
  list(event: H3Event): Promise<ResourceListEntry[]>;
  complete(event: H3Event, variable: string, value: string, context: Record<string, string>): Promise<string[]>;
  read(event: H3Event, uri: string, variables: Record<string, string>): Promise<ReadResourceResult>;
}

/** One prompt argument: string-valued on the wire. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** What a prompt handler may return: a string (one user message), messages, or a full result. */
export type PromptReturn = string | PromptMessage[] | GetPromptResult;

/** Options of {@link definePrompt}. */
export interface PromptOptions<A extends string = string> extends AccessOptions {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: JsonObject;
  arguments?: readonly (PromptArgument & { name: A })[];
  /** Completion values for one argument, given what was typed so far. */
  complete?: {
    [K in A]?: (
      value: string,
      context: { arguments: Record<string, string> },
      event: McpEvent,
    ) => string[] | Promise<string[]>;
  };
  handler: (event: McpEvent, args: Partial<Record<A, string>>) => PromptReturn | Promise<PromptReturn>;
}

export interface PromptDefinition extends AccessRules {
  readonly kind: "prompt";
  readonly name: string;
  readonly listing: JsonObject;
  /** Checks required arguments and runs the handler. */
  get(event: H3Event, args: Record<string, string>): Promise<GetPromptResult>;
  complete(event: H3Event, argument: string, value: string, context: Record<string, string>): Promise<string[]>;
}
