/**
 * The handler the modules (`mcp-h3/nitro`, `mcp-h3/nuxt`) generate under `nitro dev` / `nuxi dev`:
 * the definition files (and the skill folders of `mcp/skills/`) are read from disk by the running
 * handler, not bundled, and read again when one is added, edited or removed, with `list_changed`
 * sent to the clients listening at that moment. Internal: only the generated dev module imports this file, by its path; a built server
 * never contains it (the build's handler is `defineMcpFileHandler`, with the files bundled).
 */
import type { H3Event } from "h3";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { defineMcpHandler } from "../h3.ts";
import { withFileExtensions, type McpFileHandlerInput } from "./definitions.ts";
import type { McpEventHandler } from "../handler-types.ts";
import type { McpHandlerOptions, PerRequest } from "../types/options.ts";
import type { SkillsOptions } from "../types/skills.ts";
import { LiveDefinitions } from "../dev/live-definitions.ts";
import { LiveSkills } from "../dev/live-skills.ts";
import { SKILLS_FOLDER } from "./nitro-skill-folders.ts";
import { DEV_LOAD_TIMEOUT_MS } from "../dev/load-timeout.ts";
import { endpointFolder } from "./nitro-files.ts";
import { createFileLoader, type FileLoaderOptions } from "../dev/load-file.ts";
import { watchFolders } from "../dev/watch-folders.ts";
import { positiveOption } from "../protocol/positive-option.ts";

/** What the generated dev module passes: the build's input less the files, plus where to find them. */
export interface McpDevFileHandlerInput
  extends Omit<McpFileHandlerInput, "files" | "options">, Omit<FileLoaderOptions, "rootDir"> {
  /** The plain options of the config key; its `skills` are the skills extension's options. */
  options: Partial<McpHandlerOptions> & { skills?: SkillsOptions };
  /** The server folders whose `mcp/` holds the definition files. */
  dirs: readonly string[];
  /** The endpoint's folder under `mcp/handlers/`; none for the default endpoint (`mcp/`). */
  handler?: string;
  /** The app's root folder. */
  rootDir: string;
  /** How long one definition file's evaluation may take before its load is given up (ms; default 10 000). */
  loadTimeoutMs?: number;
  /**
   * Hooks the handler's `close` to the framework's (Nitro's `close` hook, called when the dev
   * server replaces or stops its worker); called once the dev bundle has run.
   */
  onFrameworkClose?(close: () => Promise<void>): void;
}

/** The dev handler: serves the files of `mcp/` as they are on disk, and follows their changes. */
export function defineMcpDevFileHandler(input: McpDevFileHandlerInput): McpEventHandler {
  // The config key's `skills` are the skills extension's options, no handler option.
  const { skills: skillsOptions, ...options } = input.options;
  const merged = { ...options, ...input.config } as Partial<McpHandlerOptions>;
  // Made once the dev bundle has finished running (see `modules`), before the first load.
  const loader = Promise.resolve().then(() => createFileLoader(input));
  // Awaited by every load; a failure to load jiti is reported there, not as an unhandled rejection.
  loader.catch(() => {});
  let inner: McpEventHandler | undefined;
  // The skills extension is plugged when the handler is made: when a skills/ folder is there then.
  const withSkills = input.dirs.some((dir) => existsSync(join(dir, endpointFolder(input.handler), SKILLS_FOLDER)));
  const live = new LiveDefinitions({
    skills: withSkills,
    dirs: input.dirs,
    handler: input.handler,
    rootDir: input.rootDir,
    loader,
    loadTimeoutMs: positiveOption("mcp-h3: devLoadTimeoutMs", input.loadTimeoutMs, { fallback: DEV_LOAD_TIMEOUT_MS }),
    compileApp: input.compileApp,
    fixed: merged,
    publish: (method) => inner!.engine.services.notifier.publish(method),
    report: (message, failed) => (failed ? console.error(message) : console.info(message)),
  });
  const stopWatching = watchFolders(
    input.dirs.map((dir) => join(dir, endpointFolder(input.handler))),
    // reload() reports a bad file itself and is not meant to reject; anything else that escapes is said, not left unhandled.
    () =>
      live.reload().catch((error: unknown) => console.error("mcp-h3: reloading the definition files failed", error)),
  );
  const served = async <K extends "tools" | "resources" | "prompts">(list: K) => {
    await live.ready;
    return live.current[list];
  };
  const skills = withSkills ? new LiveSkills(() => live.current.skills, skillsOptions) : undefined;
  const servedResources = async () => [...(await served("resources")), ...(skills?.resources() ?? [])];
  inner = defineMcpHandler({
    ...merged,
    name: merged.name ?? "mcp-h3",
    version: merged.version ?? "0.0.0",
    extensions: withFileExtensions(merged.extensions, skills && [skills.extension]),
    // Lists of the request: the catalog is built per request from what is served at that moment.
    tools: joined(() => served("tools"), merged.tools),
    resources: joined(servedResources, merged.resources),
    prompts: joined(() => served("prompts"), merged.prompts),
  });
  const engine = inner;
  const handler = Object.assign((event: H3Event) => engine(event), {
    __is_handler__: true as const,
    fetch: engine.fetch,
  });
  const close = async (): Promise<void> => {
    stopWatching();
    await live.close();
    await engine.close();
  };
  // The watchers go when the dev server replaces the worker (and open streams end, where it lets them), not only when it dies.
  void hookFrameworkClose(input, close).catch(warnUnhooked);
  return Object.defineProperties(handler, {
    engine: { get: () => engine.engine },
    incidents: { get: () => engine.incidents },
    close: { value: close },
  }) as unknown as McpEventHandler;
}

/** Hooks `close` to the framework's once the dev bundle has run (a microtask later; see `onFrameworkClose`). */
function hookFrameworkClose(input: McpDevFileHandlerInput, close: () => Promise<void>): Promise<void> {
  return Promise.resolve().then(() => input.onFrameworkClose?.(close));
}

/** A failure to hook the close is said, not left unhandled: the handler still serves. */
function warnUnhooked(error: unknown): void {
  console.warn("mcp-h3: could not hook the dev handler's close to the server's", error);
}

/** The files' definitions of the moment, followed by those `mcp/config.ts` gives. */
function joined<T>(files: () => Promise<T[]>, given: PerRequest<T> | undefined): PerRequest<T> {
  return async (event: H3Event) => {
    const fixed = given === undefined ? [] : Array.isArray(given) ? given : await given(event);
    return [...(await files()), ...fixed];
  };
}
