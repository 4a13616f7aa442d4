/** The options of `tasks()` with their defaults, checked once when the extension is made. */
import type { TaskStore, TasksOptions } from "../types/tasks.ts";

/** The options with every default filled in. */
export interface ResolvedTasksOptions {
  readonly store: TaskStore;
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  readonly maxResultBytes: number;
  readonly leaseMs: number;
}

/** The defaults, as the README's "Tasks" section lists them. */
export const TASK_DEFAULTS = {
  defaultTtlMs: 60 * 60_000,
  maxTtlMs: 60 * 60_000,
  pollIntervalMs: 1000,
  maxResultBytes: 1024 * 1024,
  leaseMs: 30_000,
} as const;

/** A positive integer option, or its default; anything else is a mistake reported now. */
function positive(name: keyof typeof TASK_DEFAULTS, value: number | undefined): number {
  if (value === undefined) return TASK_DEFAULTS[name];
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`mcp-h3/tasks: ${name} must be a positive integer of milliseconds or bytes, not ${value}`);
  }
  return value;
}

/** Checks and completes `options`; `store` is the default store when none is given. */
export function resolveTasksOptions(options: TasksOptions, store: () => TaskStore): ResolvedTasksOptions {
  const resolved = {
    store: options.store ?? store(),
    defaultTtlMs: positive("defaultTtlMs", options.defaultTtlMs),
    maxTtlMs: positive("maxTtlMs", options.maxTtlMs),
    pollIntervalMs: positive("pollIntervalMs", options.pollIntervalMs),
    maxResultBytes: positive("maxResultBytes", options.maxResultBytes),
    leaseMs: positive("leaseMs", options.leaseMs),
  };
  if (resolved.defaultTtlMs > resolved.maxTtlMs) {
    throw new TypeError("mcp-h3/tasks: defaultTtlMs must not be longer than maxTtlMs");
  }
  return resolved;
}
