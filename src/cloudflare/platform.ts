/**
 * The few Workers platform types `mcp-h3/cloudflare` uses, written out so the library needs no
 * Cloudflare types package; each is a subset of what workerd gives (`@cloudflare/workers-types`
 * describes the whole).
 */
import type { SqlStorage } from "../stores/durable/sql.ts";

/** `ctx.storage` of a SQLite-backed Durable Object: its SQL, and its one alarm. */
export interface DurableObjectStorage {
  readonly sql: SqlStorage;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The first argument of a Durable Object class's constructor. */
export interface DurableObjectState {
  readonly storage: DurableObjectStorage;
  /** Keeps the object in memory while `promise` is pending (compatibility date 2026-10-01 or later). */
  waitUntil?(promise: Promise<unknown>): void;
}

/** A stub of one object: requests to it are served by its `fetch`. */
export interface DurableObjectStub {
  fetch(request: Request): Promise<Response>;
}

/** A Durable Object namespace binding (`env.<binding>`). */
export interface DurableObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): DurableObjectStub;
}

/** The third argument of a Worker's `fetch`. */
export interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}
