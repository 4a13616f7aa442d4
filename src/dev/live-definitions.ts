/**
 * The definitions of the `mcp/` folders as a dev server serves them: loaded from disk, reloaded
 * when a file changes, and swapped in whole only when every file is good. A list whose entries
 * changed is announced (`notifications/{tools,resources,prompts}/list_changed`) through the
 * handler's change feed, which reaches legacy GET streams and modern listen streams alike. A bad
 * file is reported with its path and the last good set stays served; so is a file whose evaluation
 * never settles (a top-level `await` of a promise that never resolves): its load is given up after
 * `loadTimeoutMs`, so that the reloads after it still run.
 */
import { Catalog } from "../define/catalog.ts";
import { compileFiles, type CompileApp, type CompiledFiles, type DefinitionFile } from "../define/files.ts";
import { scanDefinitions } from "../_entries/nitro-files.ts";
import { scanSkillFolders } from "../_entries/nitro-skill-folders.ts";
import type { McpHandlerOptions } from "../types/options.ts";
import type { SkillDefinition } from "../types/skills.ts";
import { skillsListing } from "./skills-listing.ts";
import type { FileLoader } from "./load-file.ts";

export interface LiveDefinitionsOptions {
  /** The server folders whose `mcp/` holds the files. */
  dirs: readonly string[];
  /** The endpoint's folder under `mcp/handlers/`; none for the default endpoint (`mcp/`). */
  handler?: string;
  /** The app's root: messages name files relative to it. */
  rootDir: string;
  loader: Promise<FileLoader>;
  /** How long one file's evaluation may take before the load is given up and the file named (ms). */
  loadTimeoutMs: number;
  compileApp?: CompileApp;
  /** Whether the skill folders of the endpoint's `skills/` are read too (the dev handler serves them). */
  skills?: boolean;
  /** The definitions `mcp/config.ts` gives as lists: a file may not take one of their names. */
  fixed: Pick<McpHandlerOptions, "tools" | "resources" | "prompts">;
  /** Publishes a change notification to every listening stream. */
  publish(method: string): Promise<void>;
  /** Where messages go: the dev server's output. */
  report(message: string, failed: boolean): void;
}

/** What one reload serves: the definition files' definitions, and the skills of the skill folders. */
export interface LiveSet extends CompiledFiles {
  skills: readonly SkillDefinition[];
}

const EMPTY: LiveSet = { tools: [], resources: [], prompts: [], skills: [] };

/** Each list and the notification that announces its change. */
const RESOURCES_CHANGED: [keyof CompiledFiles, string] = ["resources", "notifications/resources/list_changed"];
const LISTS: [keyof CompiledFiles, string][] = [
  ["tools", "notifications/tools/list_changed"],
  RESOURCES_CHANGED,
  ["prompts", "notifications/prompts/list_changed"],
];

export class LiveDefinitions {
  /** What is served now: the last good set of files (empty until the first good load). */
  current: LiveSet = EMPTY;
  /** Settles when the first load has run (well or not): requests wait for it. */
  readonly ready: Promise<void>;
  readonly #options: LiveDefinitionsOptions;
  #running: Promise<void> | undefined;
  /** A change came in during a reload: one more reload follows (however many came in). */
  #again = false;
  #closed = false;
  #attempted = false;

  constructor(options: LiveDefinitionsOptions) {
    this.#options = options;
    this.ready = this.reload();
  }

  /** Reloads the files; one reload at a time, and at most one more queued behind it. Never rejects. */
  reload(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    const running = (async () => {
      do {
        this.#again = false;
        await this.#loadOnce();
      } while (this.#again && !this.#closed);
    })().finally(() => {
      this.#running = undefined;
    });
    this.#running = running;
    return running;
  }

  /** Stops reloading; resolves when a reload in flight has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#running;
  }

  async #loadOnce(): Promise<void> {
    const { report } = this.#options;
    const first = !this.#attempted;
    this.#attempted = true;
    let next: LiveSet;
    try {
      next = await this.#compile();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const kept = this.current === EMPTY ? "no definition file is served" : "the last good files stay served";
      report(`${message}\nmcp-h3: ${kept} until it is fixed`, true);
      return;
    }
    if (this.#closed) return;
    const previous = this.current;
    this.current = next;
    // The first load happens before any client could have listed anything.
    if (first) return;
    const changed = LISTS.filter(([list]) => listingOf(previous[list]) !== listingOf(next[list]));
    // A skill's files are resources: a change of their bytes (so of a digest in skills/list) is one of the resources list.
    const skillsChanged = skillsListing(previous.skills) !== skillsListing(next.skills);
    if (skillsChanged && !changed.some(([list]) => list === "resources")) changed.push(RESOURCES_CHANGED);
    if (changed.length === 0) return;
    const names: string[] = [...changed.map(([list]) => list), ...(skillsChanged ? ["skills"] : [])];
    report(`mcp-h3: definition files reloaded (${names.join(", ")} changed)`, false);
    for (const [, method] of changed) await this.#options.publish(method).catch(() => {});
  }

  /** Scans, loads and compiles every file; throws a message naming the file at the first bad one. */
  async #compile(): Promise<LiveSet> {
    const { dirs, handler, rootDir, compileApp, fixed } = this.#options;
    const found = scanDefinitions(dirs, rootDir, handler);
    const skills = this.#options.skills
      ? scanSkillFolders(dirs, rootDir, { handler }).map((skill) => skill.definition)
      : [];
    const loader = await this.#options.loader;
    const files: DefinitionFile[] = [];
    for (const file of found.files) {
      let definition: unknown;
      try {
        definition = await bounded(loader.load(file.path), this.#options.loadTimeoutMs);
      } catch (error) {
        throw new Error(`mcp-h3: ${file.label}: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
      files.push({ kind: file.kind, name: file.name, file: file.label, definition });
    }
    const compiled = compileFiles(files, compileApp);
    try {
      // What each request's catalog will check: no name given twice, between the files and mcp/config.ts.
      new Catalog(
        [...compiled.tools, ...listOf(fixed.tools)],
        [...compiled.resources, ...skills.flatMap((skill) => skill.resources), ...listOf(fixed.resources)],
        [...compiled.prompts, ...listOf(fixed.prompts)],
      );
    } catch (error) {
      throw new Error(`${(error as Error).message} (between the files and mcp/config.ts)`, { cause: error });
    }
    return { ...compiled, skills };
  }
}

/**
 * The load, or a rejection once `ms` have passed without it settling. The evaluation itself cannot
 * be stopped (it is left to settle or not, unheard); what is bounded is the reload waiting for it.
 */
function bounded<T>(load: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `its evaluation did not settle within ${ms} ms (a top-level await that never resolves?); the option devLoadTimeoutMs sets this bound`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([load, timeout]).finally(() => clearTimeout(timer));
}

function listOf<T>(given: T[] | ((...args: never[]) => unknown) | undefined): T[] {
  return Array.isArray(given) ? given : [];
}

/** What clients see of a list: its entries as listed, in order. */
function listingOf(definitions: readonly { listing: unknown }[]): string {
  return JSON.stringify(definitions.map((definition) => definition.listing));
}
