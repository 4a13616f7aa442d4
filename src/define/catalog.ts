/**
 * The definitions a request can reach, indexed once. When an option is a function of the event
 * (per-request filtering), a catalog is built for that request; otherwise one is shared.
 */
import type { H3Event } from "h3";
import type {
  AccessRules,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from "../types/definitions.ts";
import type { JsonObject } from "../protocol/jsonrpc.ts";
import type { McpHandlerOptions, PerRequest } from "../types/options.ts";

export class Catalog {
  readonly tools = new Map<string, ToolDefinition>();
  readonly resources = new Map<string, ResourceDefinition>();
  readonly templates: ResourceTemplateDefinition[] = [];
  readonly prompts = new Map<string, PromptDefinition>();
  readonly toolListing: JsonObject[];
  readonly resourceListing: JsonObject[];
  readonly templateListing: JsonObject[];
  readonly promptListing: JsonObject[];
  /** Some definition names scopes: calls are checked, and lists filtered, against the token's. */
  readonly hasScopes: boolean;
  /** Some definition has `enabled`: each request gets a catalog of its own. */
  readonly hasEnabled: boolean;
  /** The last answer of {@link matchTemplate}; one entry, so it holds at most one URI. */
  #lastMatch: { uri: string; found: TemplateMatch | undefined } | undefined;

  constructor(
    tools: readonly ToolDefinition[],
    resources: readonly (ResourceDefinition | ResourceTemplateDefinition)[],
    prompts: readonly PromptDefinition[],
    granted?: readonly string[],
  ) {
    for (const tool of tools) addUnique(this.tools, tool.name, tool, "tool");
    for (const resource of resources) {
      if (resource.kind === "resource") addUnique(this.resources, resource.uri, resource, "resource");
      else this.templates.push(resource);
    }
    for (const prompt of prompts) addUnique(this.prompts, prompt.name, prompt, "prompt");
    const all = [...tools, ...resources, ...prompts];
    this.hasScopes = all.some((definition) => definition.scopes !== undefined);
    this.hasEnabled = all.some((definition) => definition.enabled !== undefined);
    // Lists keep the order of definition: deterministic, as the 2026-07-28 changelog asks, and the
    // order the author chose. With a token's scopes, they leave out what it may not use.
    this.toolListing = listingOf(this.tools.values(), granted);
    this.resourceListing = listingOf(this.resources.values(), granted);
    this.templateListing = listingOf(this.templates, granted);
    this.promptListing = listingOf(this.prompts.values(), granted);
  }

  /**
   * Finds the template a URI matches, with its variables (a fresh object each time, which the
   * handler may keep). The last answer is remembered: a modern `resources/read` asks twice, once to
   * read and once for the template's cache hints.
   */
  matchTemplate(uri: string): TemplateMatch | undefined {
    let last = this.#lastMatch;
    if (last === undefined || last.uri !== uri) {
      last = { uri, found: this.#match(uri) };
      this.#lastMatch = last;
    }
    const found = last.found;
    return found && { template: found.template, variables: { ...found.variables } };
  }

  /**
   * The definition `resources/read` serves `uri` from: the resource of that URI, else the first
   * template it matches; undefined when neither (unknown, or left out by `enabled`). Its `scopes`
   * are what reading, subscribing to and listening for `uri` need, in both eras.
   *
   * @example
   * catalog.resourceFor("users://ada/profile")?.scopes; // the template's scopes, e.g. ["profiles"]
   */
  resourceFor(uri: string): ResourceDefinition | ResourceTemplateDefinition | undefined {
    return this.resources.get(uri) ?? this.matchTemplate(uri)?.template;
  }

  #match(uri: string): TemplateMatch | undefined {
    for (const template of this.templates) {
      const variables = template.match(uri);
      if (variables) return { template, variables };
    }
    return undefined;
  }
}

/** A template and the values of its variables in one URI. */
export interface TemplateMatch {
  template: ResourceTemplateDefinition;
  variables: Record<string, string>;
}

/** True when `granted` (undefined: auth off) holds every scope the definition needs. */
export function isGranted(definition: AccessRules, granted: readonly string[] | undefined): boolean {
  const needed = definition.scopes;
  return needed === undefined || granted === undefined || needed.every((scope) => granted.includes(scope));
}

function listingOf<T extends AccessRules & { listing: JsonObject; listed?: boolean }>(
  definitions: Iterable<T>,
  granted: readonly string[] | undefined,
): JsonObject[] {
  const listing: JsonObject[] = [];
  for (const definition of definitions) {
    if (definition.listed !== false && isGranted(definition, granted)) listing.push(definition.listing);
  }
  return listing;
}

/** The definitions whose `enabled` (when they have one) says yes for this request. */
async function enabledOnly<T extends AccessRules>(definitions: readonly T[], event: H3Event): Promise<T[]> {
  const verdicts = await Promise.all(definitions.map((definition) => definition.enabled?.(event) ?? true));
  return definitions.filter((_, index) => verdicts[index] === true);
}

function addUnique<T>(map: Map<string, T>, key: string, value: T, what: string): void {
  if (map.has(key)) throw new Error(`mcp-h3: two ${what}s are named "${key}"; names must be unique.`);
  map.set(key, value);
}

/** Which kinds of definitions a handler serves, known without running per-request functions. */
export interface CatalogShape {
  tools: boolean;
  resources: boolean;
  prompts: boolean;
}

type AnyResource = ResourceDefinition | ResourceTemplateDefinition;

/** Resolves the catalog for one request: shared when every option is static. */
export class CatalogSource {
  readonly shape: CatalogShape;
  #static: Catalog | undefined;
  #options: Pick<McpHandlerOptions, "tools" | "resources" | "prompts">;
  /** What extensions serve beside the `resources` option (the skills' files), after it. */
  #extraResources: readonly AnyResource[];

  constructor(
    options: Pick<McpHandlerOptions, "tools" | "resources" | "prompts">,
    extraResources: readonly AnyResource[] = [],
  ) {
    this.#options = options;
    this.#extraResources = extraResources;
    this.shape = {
      tools: options.tools !== undefined,
      resources: options.resources !== undefined || extraResources.length > 0,
      prompts: options.prompts !== undefined,
    };
    const { tools = [], resources = [], prompts = [] } = options;
    if (Array.isArray(tools) && Array.isArray(resources) && Array.isArray(prompts)) {
      this.#static = new Catalog(tools, this.#withExtra(resources), prompts);
    }
  }

  #withExtra(resources: readonly AnyResource[]): readonly AnyResource[] {
    return this.#extraResources.length === 0 ? resources : [...resources, ...this.#extraResources];
  }

  /**
   * The catalog for this request; `granted` are the token's scopes (undefined with auth off). The
   * shared catalog serves every request unless some definition has `enabled`, or names scopes while
   * auth is on.
   */
  get(event: H3Event, granted?: readonly string[]): Catalog | Promise<Catalog> {
    const shared = this.#static;
    if (shared !== undefined && !shared.hasEnabled && (granted === undefined || !shared.hasScopes)) return shared;
    return this.#build(event, granted);
  }

  async #build(event: H3Event, granted: readonly string[] | undefined): Promise<Catalog> {
    const [tools, given, prompts] = await Promise.all([
      resolveList(this.#options.tools, event),
      resolveList(this.#options.resources, event),
      resolveList(this.#options.prompts, event),
    ]);
    const resources = this.#withExtra(given);
    const catalog = new Catalog(tools, resources, prompts, granted);
    if (!catalog.hasEnabled) return catalog;
    const [onTools, onResources, onPrompts] = await Promise.all([
      enabledOnly(tools, event),
      enabledOnly(resources, event),
      enabledOnly(prompts, event),
    ]);
    return new Catalog(onTools, onResources, onPrompts, granted);
  }
}

async function resolveList<T>(list: PerRequest<T> | undefined, event: H3Event): Promise<readonly T[]> {
  if (list === undefined) return [];
  return typeof list === "function" ? await list(event) : list;
}
