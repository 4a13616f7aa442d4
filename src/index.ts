/**
 * mcp-h3: the Model Context Protocol on one H3 event handler, for legacy-session and modern clients.
 */

// Handler
export { defineMcpHandler } from "./h3.ts";
export { defineMcpFetchHandler } from "./fetch.ts";
export type { McpEventHandler, McpFetchHandler, McpHandlerControls, WorkerContext } from "./handler-types.ts";
export type { IncidentKind, IncidentCounts } from "./types/incidents.ts";
export type { McpHandlerOptions, ResolvedOptions, SessionOptions, PerRequest } from "./types/options.ts";

// Extensions: optional parts plugged in through `extensions` or by a store (mcp-h3/shared, mcp-h3/redis)
export type {
  McpExtension,
  McpExtensionPoint,
  McpMethodCall,
  McpRequestAccess,
  McpMethodHandler,
  McpInputRequest,
  McpToolCall,
  McpToolCallWrapper,
  McpToolRun,
  McpListenSource,
  McpToolListingDecorator,
  CarriesExtensions,
} from "./types/extensions.ts";

// Definitions
export { defineTool } from "./define/tool.ts";
export { defineResource, defineResourceTemplate } from "./define/resource.ts";
export { definePrompt } from "./define/prompt.ts";
export { text, image, audio, embeddedResource, resourceLink } from "./define/content.ts";
export type {
  ToolOptions,
  TaskSupport,
  ToolDefinition,
  ResourceDescription,
  ResourceOptions,
  ResourceDefinition,
  ResourceTemplateOptions,
  ResourceTemplateDefinition,
  ResourceListEntry,
  PromptOptions,
  PromptDefinition,
  PromptArgument,
  SchemaInput,
  ToolReturn,
  ResourceReturn,
  PromptReturn,
} from "./types/definitions.ts";

// Context
export type {
  McpContext,
  McpEvent,
  McpNotify,
  NotifySessionOptions,
  McpTask,
  McpUserContext,
  TraceContext,
  ElicitSchema,
  ElicitContent,
  InputRequestOptions,
  SampleOptions,
  SampleResult,
} from "./types/context.ts";
export type { AuthIdentity, AuthOptions, RateLimitDecision } from "./types/auth.ts";
export type { McpEra } from "./types/era.ts";
export type { McpLifespan } from "./types/lifespan.ts";
export type { CacheHints } from "./types/cache-hints.ts";
export type { McpHooks, McpRequestInfo } from "./types/hooks.ts";

// Errors and protocol
export { McpError, ErrorCode, isMcpError } from "./protocol/errors.ts";
export { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from "./protocol/versions.ts";
export type * from "./protocol/types.ts";
// JsonRpcNotification and JsonRpcResponse appear in public types (McpExtension, hooks): exported so the built
// declarations name them from a public entry (rollup-plugin-dts warned on every build otherwise).
export type {
  JsonObject,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcResponse,
} from "./protocol/jsonrpc.ts";

// Helpers an extension (or any server code) needs as the core does: client values quoted in errors without
// walking them, a bound on the JSON size of what is kept, bytes as base64 without Buffer, an origin a CSP may hold,
// a numeric option checked where it is given
export { echoValue } from "./protocol/echo.ts";
export { positiveOption, nonNegativeOption, type PositiveRule } from "./protocol/positive-option.ts";
export { jsonByteLengthAtMost } from "./protocol/json-size.ts";
export { encodeBase64 } from "./define/base64.ts";
export { isCspOrigin } from "./protocol/csp-source.ts";

// Stores
export { MemorySessionStore } from "./stores/memory/sessions.ts";
export { MemoryEventStore } from "./stores/memory/events.ts";
export { MemoryBus } from "./stores/memory/bus.ts";
export type {
  SessionStore,
  SessionData,
  SubscribeOutcome,
  EventStore,
  EventReplay,
  StoredEvent,
  Bus,
} from "./types/stores.ts";
export type {
  TaskChange,
  TaskCreateOutcome,
  TaskMessage,
  TaskPage,
  TaskState,
  TaskStatus,
  TaskStore,
  TasksOptions,
} from "./types/tasks.ts";

// Auth helpers
export {
  defineProtectedResourceMetadata,
  protectedResourceMetadataUrl,
  PROTECTED_RESOURCE_WELL_KNOWN,
} from "./auth/protected-resource.ts";
export { createTokenBucket } from "./auth/token-bucket.ts";
export type {
  ProtectedResourceMetadataOptions,
  ProtectedResourceMetadata,
  WebEventHandler,
  TokenBucket,
  TokenBucketOptions,
  TokenBucketResult,
} from "./types/auth-helpers.ts";
