/**
 * One descriptor per protocol method: everything the library decides per method (its eras, who
 * serves it, the capability it needs, whose scopes it checks, where its `Mcp-Name` comes from,
 * whether it may take MRTR rounds, how its modern result is stamped, its OpenTelemetry attributes)
 * is read here, never from a list of names of its own. Data only.
 *
 * Adding a method both eras serve is its entry here plus its dispatch function (`dispatch/table.ts`
 * refuses to compile while a `"table"` method has no function or a function has no entry).
 */

/** A protocol era, as `McpEra` (`types/era.ts`) names it. */
export type MethodEra = "legacy" | "modern";

const BOTH: readonly MethodEra[] = ["legacy", "modern"];
const LEGACY: readonly MethodEra[] = ["legacy"];
const MODERN: readonly MethodEra[] = ["modern"];

/** The facts of one protocol method. Absent optional facts mean "no": no scopes, no `Mcp-Name`, and so on. */
export interface MethodDescriptor {
  /** The eras whose protocol defines the method; in any other it is answered as an unknown method. */
  readonly eras: readonly MethodEra[];
  /**
   * Who answers it: `"table"` a dispatch function of `dispatch/table.ts`, `"lane"` the era's lane
   * itself (`initialize`, `server/discover`, …), `"extension"` an extension that plugs it in (the
   * tasks methods); not served while none does.
   */
  readonly servedBy: "table" | "lane" | "extension";
  /** The server capability that must be declared for the method to be served. */
  readonly capability?: "tools" | "resources" | "prompts" | "completions" | "logging";
  /**
   * The definition the request uses, whose `scopes` are checked before the handler runs (403): the
   * tool or prompt of `params.name`, the resource of `params.uri`, or what a completion's `ref` names.
   */
  readonly definition?: "tool" | "prompt" | "resource" | "completion-ref";
  /** The string param the request names (`McpContext.name`), mirrored by the modern `Mcp-Name` header. */
  readonly nameParam?: "name" | "uri" | "taskId";
  /**
   * Modern: the method may answer `input_required` (MRTR); the value says what identifies the request
   * across its rounds (the digest its `requestState` is bound to).
   */
  readonly inputRounds?: "uri" | "name-and-arguments";
  /** Modern: its complete results carry `ttlMs` / `cacheScope` (the `cacheHints` option may name it). */
  readonly cacheable?: true;
  /** OpenTelemetry: the attribute that carries the name, and the `gen_ai.operation.name` when there is one. */
  readonly otel?: { readonly nameAttribute: string; readonly operation?: string };
}

const DESCRIPTORS = {
  // Both eras, served by the method table.
  "tools/list": { eras: BOTH, servedBy: "table", capability: "tools", cacheable: true },
  "tools/call": {
    eras: BOTH,
    servedBy: "table",
    capability: "tools",
    definition: "tool",
    nameParam: "name",
    inputRounds: "name-and-arguments",
    otel: { nameAttribute: "gen_ai.tool.name", operation: "execute_tool" },
  },
  "prompts/list": { eras: BOTH, servedBy: "table", capability: "prompts", cacheable: true },
  "prompts/get": {
    eras: BOTH,
    servedBy: "table",
    capability: "prompts",
    definition: "prompt",
    nameParam: "name",
    inputRounds: "name-and-arguments",
    otel: { nameAttribute: "gen_ai.prompt.name" },
  },
  "resources/list": { eras: BOTH, servedBy: "table", capability: "resources", cacheable: true },
  "resources/templates/list": { eras: BOTH, servedBy: "table", capability: "resources", cacheable: true },
  "resources/read": {
    eras: BOTH,
    servedBy: "table",
    capability: "resources",
    definition: "resource",
    nameParam: "uri",
    inputRounds: "uri",
    cacheable: true,
    otel: { nameAttribute: "mcp.resource.uri" },
  },
  "completion/complete": { eras: BOTH, servedBy: "table", capability: "completions", definition: "completion-ref" },

  // The legacy lane's own (legacy/serve/): the handshake and what lives on a session.
  initialize: { eras: LEGACY, servedBy: "lane" },
  ping: { eras: LEGACY, servedBy: "lane" },
  "logging/setLevel": { eras: LEGACY, servedBy: "lane", capability: "logging" },
  "resources/subscribe": { eras: LEGACY, servedBy: "lane", capability: "resources" },
  "resources/unsubscribe": { eras: LEGACY, servedBy: "lane", capability: "resources" },

  // The modern lane's own (modern/).
  "server/discover": { eras: MODERN, servedBy: "lane", cacheable: true },
  "subscriptions/listen": { eras: MODERN, servedBy: "lane" },

  // The tasks extension (mcp-h3/tasks): each wire plugs its era's methods; a task's id is its name (SEP-2663).
  "tasks/get": { eras: BOTH, servedBy: "extension", nameParam: "taskId" },
  "tasks/cancel": { eras: BOTH, servedBy: "extension", nameParam: "taskId" },
  "tasks/result": { eras: LEGACY, servedBy: "extension" },
  "tasks/list": { eras: LEGACY, servedBy: "extension" },
  "tasks/update": { eras: MODERN, servedBy: "extension", nameParam: "taskId" },
} as const satisfies Record<string, MethodDescriptor>;

type Descriptors = typeof DESCRIPTORS;

/** Every protocol method this library knows. */
export type MethodName = keyof Descriptors;

/** The methods whose descriptor has `Fact`, e.g. `MethodsWhere<{ cacheable: true }>`. */
export type MethodsWhere<Fact> = { [M in MethodName]: Descriptors[M] extends Fact ? M : never }[MethodName];

/** The methods the method table serves, each with a dispatch function. */
export type TableMethod = MethodsWhere<{ servedBy: "table" }>;

/** Methods whose modern results carry cache hints. */
export type CacheableMethodName = MethodsWhere<{ cacheable: true }>;

// A Map, so that a client's method name never reaches an object's prototype ("__proto__", "toString").
const BY_NAME: ReadonlyMap<string, MethodDescriptor> = new Map(Object.entries(DESCRIPTORS));

const BY_ERA: Readonly<Record<MethodEra, ReadonlyMap<string, MethodDescriptor>>> = {
  legacy: new Map([...BY_NAME].filter(([, descriptor]) => descriptor.eras.includes("legacy"))),
  modern: new Map([...BY_NAME].filter(([, descriptor]) => descriptor.eras.includes("modern"))),
};

/**
 * The descriptor of `method` in either era, or undefined for a method this library does not know
 * (an extension's own, or a client's mistake): one Map lookup.
 *
 * @example
 * describeMethod("tools/call")?.nameParam; // "name"
 * describeMethod("example/ping"); // undefined
 */
export function describeMethod(method: string): MethodDescriptor | undefined {
  return BY_NAME.get(method);
}

/**
 * The methods the protocol of `era` defines, by name: a method of the other era only is not there.
 *
 * @example
 * methodsOfEra("modern").has("ping"); // false: the modern era removed it
 */
export function methodsOfEra(era: MethodEra): ReadonlyMap<string, MethodDescriptor> {
  return BY_ERA[era];
}

/** Names of the methods of `era` whose descriptor says `servedBy`. */
export function methodsServedBy(era: MethodEra, servedBy: MethodDescriptor["servedBy"]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const [name, descriptor] of BY_ERA[era]) if (descriptor.servedBy === servedBy) names.add(name);
  return names;
}

/** The methods that may answer `input_required`, for messages that list them ("tools/call, prompts/get and resources/read"). */
export function inputRoundMethods(): string {
  const names = [...BY_NAME].filter(([, descriptor]) => descriptor.inputRounds !== undefined).map(([name]) => name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names.join("");
}
