/**
 * The playground's live activity: the last requests the MCP endpoint served, kept in a bounded ring
 * and pushed to the open pages. Fed by the library's own instrumentation hooks (`activityHooks`).
 */
import type { McpHooks, McpRequestInfo } from "mcp-h3";

/** One finished MCP request, as the page shows it. */
export interface ActivityEntry {
  /** Increasing number, so a page can tell entries it already has from new ones. */
  readonly seq: number;
  /** When the request ended (ISO 8601). */
  readonly at: string;
  readonly era: McpRequestInfo["era"];
  readonly method: string;
  /** Tool or prompt name, or resource URI. */
  readonly name: string | null;
  readonly durationMs: number;
  readonly sessionId: string | null;
  readonly status: NonNullable<McpRequestInfo["status"]>;
  /** The JSON-RPC error code when the request failed. */
  readonly errorCode: number | null;
}

/** How many recent requests are kept: enough for a page, small enough to send whole to a new one. */
export const ACTIVITY_CAPACITY = 100;
/** Names (tool names, resource URIs) come from clients: cut them to a length a table row can hold. */
const MAX_NAME_LENGTH = 200;

const ring: (ActivityEntry | undefined)[] = Array.from({ length: ACTIVITY_CAPACITY });
let nextSeq = 1;
const listeners = new Set<(entry: ActivityEntry) => void>();

/** The kept entries, oldest first. */
export function recentActivity(): ActivityEntry[] {
  const entries: ActivityEntry[] = [];
  const first = Math.max(1, nextSeq - ACTIVITY_CAPACITY);
  for (let seq = first; seq < nextSeq; seq++) entries.push(ring[seq % ACTIVITY_CAPACITY]!);
  return entries;
}

/** Calls `listener` with every new entry until the returned function is called. */
export function onActivity(listener: (entry: ActivityEntry) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** How many pages are listening right now (the stream route caps it). */
export function activityListenerCount(): number {
  return listeners.size;
}

function record(info: McpRequestInfo): void {
  const seq = nextSeq++;
  const entry: ActivityEntry = {
    seq,
    at: new Date().toISOString(),
    era: info.era,
    method: info.method,
    name: info.name === undefined ? null : info.name.slice(0, MAX_NAME_LENGTH),
    durationMs: Math.round(info.durationMs * 10) / 10,
    sessionId: info.sessionId ?? null,
    status: info.status ?? "ok",
    errorCode: info.error?.code ?? null,
  };
  ring[seq % ACTIVITY_CAPACITY] = entry;
  for (const listener of listeners) listener(entry);
}

/** The hooks that feed the activity log: one entry per request, when it ends. */
export const activityHooks: McpHooks = { onResponse: record };
