/** The options of `tasks()` with their defaults, checked once when the extension is made. */
import { positiveOption } from "../index.ts";
import type { TaskStore, TasksOptions } from "../types/tasks.ts";

/** The options with every default filled in. */
export interface ResolvedTasksOptions {
  readonly store: TaskStore;
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
  readonly minTtlMs: number;
  readonly pollIntervalMs: number;
  readonly maxResultBytes: number;
  readonly leaseMs: number;
  readonly maxRunningTasks: number;
  readonly maxRunningTasksPerOwner: number;
}

/** The defaults, as the README's "Tasks" section lists them. */
export const TASK_DEFAULTS = {
  defaultTtlMs: 60 * 60_000,
  maxTtlMs: 60 * 60_000,
  // Five default poll intervals: a client polling as told reads a finished task a few times.
  minTtlMs: 5_000,
  pollIntervalMs: 1000,
  maxResultBytes: 1024 * 1024,
  leaseMs: 30_000,
  // The memory store's own caps: at a normal TTL, the store's caps bound the handlers as before.
  maxRunningTasks: 10_000,
  maxRunningTasksPerOwner: 1_000,
} as const;

/** A positive whole-number option, or `fallback` (the default); anything else is a mistake reported now. */
function positive(name: keyof typeof TASK_DEFAULTS, value: number | undefined, fallback?: number): number {
  return positiveOption(`mcp-h3/tasks: tasks(): ${name}`, value, { fallback: fallback ?? TASK_DEFAULTS[name] });
}

/**
 * Checks the numeric options as soon as `tasks()` is called, where they are given: the store, and
 * with it the defaults it advertises, is only chosen when the handler is defined.
 */
export function checkTaskNumbers(options: TasksOptions): void {
  for (const name of Object.keys(TASK_DEFAULTS) as (keyof typeof TASK_DEFAULTS)[]) positive(name, options[name]);
}

/** A bound the store advertises (a custom store may have none, or a wrong one: then it is not one). */
function storeBound(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** Checks and completes `options`; `store` is the default store when none is given. */
export function resolveTasksOptions(options: TasksOptions, store: () => TaskStore): ResolvedTasksOptions {
  const chosen = options.store ?? store();
  const maxTtlMs = positive("maxTtlMs", options.maxTtlMs);
  const resolved = {
    store: chosen,
    defaultTtlMs: positive("defaultTtlMs", options.defaultTtlMs),
    maxTtlMs,
    minTtlMs: positive("minTtlMs", options.minTtlMs, Math.min(TASK_DEFAULTS.minTtlMs, maxTtlMs)),
    pollIntervalMs: positive("pollIntervalMs", options.pollIntervalMs),
    maxResultBytes: positive("maxResultBytes", options.maxResultBytes),
    leaseMs: positive("leaseMs", options.leaseMs),
    maxRunningTasks: positive("maxRunningTasks", options.maxRunningTasks, storeBound(chosen.maxTasks)),
    maxRunningTasksPerOwner: positive(
      "maxRunningTasksPerOwner",
      options.maxRunningTasksPerOwner,
      storeBound(chosen.maxTasksPerOwner),
    ),
  };
  if (resolved.defaultTtlMs > resolved.maxTtlMs) {
    throw new TypeError("mcp-h3/tasks: defaultTtlMs must not be longer than maxTtlMs");
  }
  if (resolved.minTtlMs > resolved.maxTtlMs) {
    throw new TypeError("mcp-h3/tasks: minTtlMs must not be longer than maxTtlMs");
  }
  return resolved;
}
