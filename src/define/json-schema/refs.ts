/**
 * Where `$ref`s point. A document is walked once for its schema resources (`$id`) and anchors; references
 * then resolve within it only: nothing is ever fetched, and a reference out of the document is an error.
 */
import { isObject } from "../../protocol/jsonrpc.ts";
import type { JsonObject } from "../../protocol/jsonrpc.ts";
import { SUBSCHEMA_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from "./keywords.ts";

/** The base URI of a document without `$id`, only there to resolve its relative references against. */
export const DOCUMENT_URI = "https://json-schema.invalid/document";

/** The schema resources and anchors of one document, by absolute URI, and the base URI of every subschema. */
export interface SchemaIndex {
  readonly resources: Map<string, JsonObject>;
  readonly anchors: Map<string, JsonObject>;
  readonly baseOf: Map<object, string>;
}

const SUBSCHEMA_MAPS = ["properties", ...SUBSCHEMA_MAP_KEYWORDS];

/** Walks a document for its `$id`s (draft 4: `id`), `$anchor`s and `$dynamicAnchor`s. */
export function indexSchema(root: JsonObject, draft: number): SchemaIndex {
  const index: SchemaIndex = { resources: new Map(), anchors: new Map(), baseOf: new Map() };
  const idKey = draft === 4 ? "id" : "$id";
  const walk = (schema: unknown, base: string): void => {
    if (Array.isArray(schema)) for (const item of schema) walk(item, base);
    if (!isObject(schema) || index.baseOf.has(schema)) return;
    // Before 2019-09 a `$ref` made its siblings ignored, an `$id` among them too.
    const id = draft <= 7 && typeof schema.$ref === "string" ? undefined : schema[idKey];
    if (typeof id === "string" && id !== "") {
      const [resource, fragment] = locate(id, base);
      // Before 2019-09, a fragment in `$id` (`"#name"`) named an anchor.
      if (fragment !== "") index.anchors.set(`${resource}#${fragment}`, schema);
      if (!id.startsWith("#")) index.resources.set(resource, schema);
      base = resource;
    }
    index.baseOf.set(schema, base);
    for (const key of ["$anchor", "$dynamicAnchor"]) {
      if (typeof schema[key] === "string") index.anchors.set(`${base}#${schema[key]}`, schema);
    }
    for (const key of SUBSCHEMA_KEYWORDS) walk(schema[key], base);
    for (const key of SUBSCHEMA_MAPS) {
      const map = schema[key];
      if (isObject(map)) walk(Object.values(map), base);
    }
  };
  index.resources.set(DOCUMENT_URI, root);
  walk(root, DOCUMENT_URI);
  return index;
}

/** Whether the document holds more than one schema resource (an `$id` below the root). */
export function hasEmbeddedResources(index: SchemaIndex): boolean {
  return new Set(index.resources.values()).size > 1;
}

/**
 * Resolves a reference written where the base URI is `base`: to a whole resource, an anchor in it, or a
 * JSON pointer into it (`#/$defs/a%20b`, with `~0` and `~1` escapes).
 */
export function resolveRef(index: SchemaIndex, ref: string, base: string): { schema: unknown; base: string } {
  const [resource, fragment] = locate(ref, base);
  const root = index.resources.get(resource);
  const missing = (): Error =>
    new Error(
      `$ref ${JSON.stringify(ref)} cannot be resolved: only references within the schema itself are supported.`,
    );
  if (root === undefined) throw missing();
  if (fragment === "") return { schema: root, base: resource };
  if (!fragment.startsWith("/")) {
    const anchored = index.anchors.get(`${resource}#${fragment}`);
    if (anchored === undefined) throw missing();
    return { schema: anchored, base: index.baseOf.get(anchored) ?? resource };
  }
  let target: unknown = root;
  let targetBase = resource;
  for (const token of fragment.slice(1).split("/")) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof target !== "object" || target === null || !Object.hasOwn(target, key)) throw missing();
    target = (target as Record<string, unknown>)[key];
    targetBase = (isObject(target) && index.baseOf.get(target)) || targetBase;
  }
  return { schema: target, base: targetBase };
}

/** The resource (no fragment) and the percent-decoded fragment of a URI reference resolved against `base`. */
function locate(reference: string, base: string): [resource: string, fragment: string] {
  try {
    const url = new URL(reference, base);
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    return [url.href, fragment];
  } catch (error) {
    throw new Error(`${JSON.stringify(reference)} is not a valid URI reference.`, { cause: error });
  }
}
