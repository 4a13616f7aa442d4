/** Types of scripts/workerd-config.mjs, for the tests that import it. */

/** One Durable Object class of the Worker module. */
export interface DurableClass {
  /** The class the module exports. */
  className: string;
  /** The name the Worker reaches its namespace by (`env.<binding>`). */
  binding: string;
  /** A SQLite-backed class (`new_sqlite_classes`). */
  enableSql?: boolean;
}

export interface WorkerdWorker {
  /** The bundled module's file, relative to the config. */
  module: string;
  classes: DurableClass[];
  /** An existing directory for the objects' storage. */
  storageDir: string;
  /** `host:port` of the HTTP socket. */
  address: string;
  compatibilityDate: string;
  compatibilityFlags?: string[];
}

/** The capnp config that serves `worker` in workerd. */
export function workerdConfig(worker: WorkerdWorker): string;

/** The Durable Object classes a wrangler config declares. */
export function durableClassesOf(wrangler: unknown): DurableClass[];

/** JSONC (comments, trailing commas) parsed. */
export function parseJsonc(text: string): unknown;
