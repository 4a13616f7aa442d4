/**
 * Content blocks: small public helpers to build them, and the `to*()` converters that shape what a tool,
 * resource or prompt handler returns into the protocol's result.
 */
import { isObject } from "../protocol/jsonrpc.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type {
  AudioContent,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  GetPromptResult,
  ImageContent,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
  ResourceLink,
  TextContent,
} from "../protocol/types.ts";
import { encodeBase64 } from "./base64.ts";

/**
 * A text content block.
 *
 * @example
 * return [text("It is 21 °C in Oslo."), image(png, "image/png")];
 */
export function text(text: string): TextContent {
  return { type: "text", text };
}

/**
 * An image content block from base64 text or raw bytes.
 *
 * @example
 * return image(await file.bytes(), "image/png");
 */
export function image(data: string | Uint8Array, mimeType: string): ImageContent {
  return { type: "image", data: typeof data === "string" ? data : encodeBase64(data), mimeType };
}

/**
 * An audio content block from base64 text or raw bytes.
 *
 * @example
 * return audio(wavBytes, "audio/wav");
 */
export function audio(data: string | Uint8Array, mimeType: string): AudioContent {
  return { type: "audio", data: typeof data === "string" ? data : encodeBase64(data), mimeType };
}

/**
 * A resource embedded in a result, with its contents.
 *
 * @example
 * return embeddedResource({ uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" });
 */
export function embeddedResource(contents: ResourceContents): EmbeddedResource {
  return { type: "resource", resource: contents };
}

/**
 * A link to a resource the client may read later.
 *
 * @example
 * return resourceLink({ uri: "file:///report.pdf", name: "report", mimeType: "application/pdf" });
 */
export function resourceLink(link: Omit<ResourceLink, "type">): ResourceLink {
  return { type: "resource_link", ...link };
}

/** True for an object shaped like one of the five content block kinds. */
export function isContentBlock(value: unknown): value is ContentBlock {
  if (!isObject(value)) return false;
  switch (value.type) {
    case "text":
      return typeof value.text === "string";
    case "image":
    case "audio":
      return typeof value.data === "string" && typeof value.mimeType === "string";
    case "resource":
      return isObject(value.resource);
    case "resource_link":
      return typeof value.uri === "string" && typeof value.name === "string";
    default:
      return false;
  }
}

/**
 * Shapes a tool handler's return into a `CallToolResult`:
 * - a string → one text block; `undefined` → no content;
 * - an object with a `content` array → a full result, returned as is;
 * - a content block, or an array of them → that content (a content-block-like object is data instead
 *   when the tool declares an output schema);
 * - any other object → `structuredContent`, plus the same JSON as a text block for clients that read only
 *   `content`. This happens with or without an output schema: structured data is never dropped;
 * - anything else (numbers, other arrays) → its JSON as one text block.
 *
 * @example
 * toCallToolResult({ celsius: 21 }, true);
 * // { content: [{ type: "text", text: "{\"celsius\":21}" }], structuredContent: { celsius: 21 } }
 */
export function toCallToolResult(value: unknown, hasOutputSchema: boolean): CallToolResult {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (isObject(value)) {
    if (Array.isArray(value.content)) return value as unknown as CallToolResult;
    if (!hasOutputSchema && isContentBlock(value)) return { content: [value] };
    return toStructuredResult(value);
  }
  if (Array.isArray(value) && value.every(isContentBlock)) return { content: value };
  return { content: [{ type: "text", text: JSON.stringify(value) ?? String(value) }] };
}

/**
 * A result carrying `value` as `structuredContent` and as JSON text.
 *
 * @example
 * toStructuredResult({ celsius: 21 }); // { content: [{ type: "text", text: "{\"celsius\":21}" }], structuredContent: … }
 */
export function toStructuredResult(value: JsonObject): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * Shapes a resource reader's return into a `ReadResourceResult`: a string → text contents, bytes → a base64
 * blob (both with `uri` and the given `mimeType`), one contents object or an array of them, or a full result.
 *
 * @example
 * toReadResourceResult("# Notes", "file:///notes.md", "text/markdown");
 * // { contents: [{ uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" }] }
 */
export function toReadResourceResult(value: unknown, uri: string, mimeType?: string): ReadResourceResult {
  if (typeof value === "string") {
    return { contents: [mimeType === undefined ? { uri, text: value } : { uri, mimeType, text: value }] };
  }
  const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : value;
  if (bytes instanceof Uint8Array) {
    const blob = encodeBase64(bytes);
    return { contents: [mimeType === undefined ? { uri, blob } : { uri, mimeType, blob }] };
  }
  if (Array.isArray(value)) return { contents: value as ResourceContents[] };
  if (isObject(value)) {
    if (Array.isArray(value.contents)) return value as unknown as ReadResourceResult;
    if (typeof value.uri === "string" && (typeof value.text === "string" || typeof value.blob === "string")) {
      return { contents: [value as unknown as ResourceContents] };
    }
  }
  throw new TypeError(
    `The reader of resource ${uri} returned ${describe(value)}; return a string, bytes, resource contents or { contents }.`,
  );
}

/**
 * Shapes a prompt handler's return into a `GetPromptResult`: a string → one user text message, an array of
 * messages, or a full result. `description` is added when the handler did not return a full result.
 *
 * @example
 * toGetPromptResult("Summarise this page", "Summary prompt");
 * // { description: "Summary prompt", messages: [{ role: "user", content: { type: "text", text: "Summarise this page" } }] }
 */
export function toGetPromptResult(value: unknown, description?: string): GetPromptResult {
  let messages: PromptMessage[];
  if (typeof value === "string") messages = [{ role: "user", content: { type: "text", text: value } }];
  else if (Array.isArray(value)) messages = value as PromptMessage[];
  else if (isObject(value) && Array.isArray(value.messages)) return value as unknown as GetPromptResult;
  else {
    throw new TypeError(`A prompt handler returned ${describe(value)}; return a string, messages or { messages }.`);
  }
  return description === undefined ? { messages } : { description, messages };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object of an unknown shape" : `a ${typeof value}`;
}
