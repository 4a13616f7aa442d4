/**
 * The skills of `mcp/skills/` as a dev server serves them: the very `skills()` extension a build
 * serves, made again from each reload's skills. An extension plugs in once, when the handler is
 * defined, so the live one plugs what `skills()` plugs (its methods, its declaration) with each
 * method handing the call to the extension of the skills served at that moment; their files join
 * the dev handler's per-request resources, so `resources/read` and the access checks see them.
 */
import { SKILLS_EXTENSION, skills } from "../skills/extension.ts";
import type { ResourceDefinition, ResourceTemplateDefinition } from "../types/definitions.ts";
import type { McpEra } from "../types/era.ts";
import type { McpExtension, McpExtensionPoint, McpMethodHandler } from "../types/extensions.ts";
import type { SkillDefinition, SkillsOptions } from "../types/skills.ts";

type AnyResource = ResourceDefinition | ResourceTemplateDefinition;

/** What one `skills()` plugged: its methods by name, its resources, its declarations. */
interface Captured {
  methods: Map<string, { handler: McpMethodHandler; eras?: readonly McpEra[] }>;
  resources: AnyResource[];
  advertised: { capabilities: Parameters<McpExtensionPoint["advertise"]>[0]; eras?: readonly McpEra[] }[];
}

/** Plugs `extension` into a point that only records what it plugs; `real` lends the stores and the rest. */
function capture(extension: McpExtension, real: McpExtensionPoint | undefined): Captured {
  const captured: Captured = { methods: new Map(), resources: [], advertised: [] };
  const refuse = (what: string) => (): never => {
    throw new Error(`mcp-h3: the live skills extension does not ${what}`);
  };
  extension.plug({
    get stores() {
      return real!.stores;
    },
    get incidents() {
      return real!.incidents;
    },
    get lifespan() {
      return real!.lifespan;
    },
    method(name, handler, eras) {
      captured.methods.set(name, { handler, eras });
    },
    advertise(capabilities, eras) {
      captured.advertised.push({ capabilities, eras });
    },
    resources(definitions) {
      captured.resources.push(...definitions);
    },
    onClose: refuse("close"),
    wrapToolCall: refuse("wrap tools/call"),
    listen: refuse("serve listen filters"),
    decorateTools: refuse("decorate tools/list"),
  });
  return captured;
}

export class LiveSkills {
  readonly #current: () => readonly SkillDefinition[];
  readonly #options: SkillsOptions | undefined;
  #point: McpExtensionPoint | undefined;
  #madeFor: readonly SkillDefinition[] | undefined;
  #made: Captured | undefined;

  /**
   * `current` gives the skills served now (the last good reload's); a new array means new skills.
   * `options` are `skills()`' (the config key's `skills`).
   */
  constructor(current: () => readonly SkillDefinition[], options?: SkillsOptions) {
    this.#current = current;
    this.#options = options;
  }

  /** The extension to give the dev handler: `skills()`'s methods and declaration, served live. */
  get extension(): McpExtension {
    return {
      name: SKILLS_EXTENSION,
      plug: (point) => {
        this.#point = point;
        // An empty set shows what skills() plugs; each method then serves the skills of the moment.
        const shape = capture(skills([], this.#options), point);
        for (const [name, { eras }] of shape.methods) {
          point.method(name, (call) => this.#now().methods.get(name)!.handler(call), eras);
        }
        for (const { capabilities, eras } of shape.advertised) point.advertise(capabilities, eras);
      },
    };
  }

  /** The resources serving the files of the skills of the moment. */
  resources(): AnyResource[] {
    return this.#now().resources;
  }

  /** `skills()` of the skills served now, made once per reload that changed them. */
  #now(): Captured {
    const current = this.#current();
    if (this.#made === undefined || this.#madeFor !== current) {
      this.#made = capture(skills(current, this.#options), this.#point);
      this.#madeFor = current;
    }
    return this.#made;
  }
}
