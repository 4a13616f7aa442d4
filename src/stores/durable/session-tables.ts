/**
 * The sessions table of `DurableSessionStore` and the reads of its order of use: each read walks
 * an index from its front (the least recently used first), so it reads as many rows as it gives.
 */
import { PLACES_SCHEMA } from "./principal-places.ts";
import { SUBSCRIPTIONS_SCHEMA } from "./session-subscriptions.ts";
import { firstRow, rows, type SqlStorage } from "./sql.ts";

export const SESSIONS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS mcp_sessions (id TEXT PRIMARY KEY, data TEXT NOT NULL, pending INTEGER NOT NULL,
    last_used INTEGER NOT NULL, use_seq INTEGER NOT NULL, created_at INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS mcp_sessions_order ON mcp_sessions (pending, use_seq)",
  "CREATE INDEX IF NOT EXISTS mcp_sessions_expiry ON mcp_sessions (last_used)",
  ...SUBSCRIPTIONS_SCHEMA,
  ...PLACES_SCHEMA,
];

/** A session as the order of use sees it. */
export interface OrderRow extends Record<string, string | number> {
  id: string;
  last_used: number;
  created_at: number;
}

/** Most sessions looked at per sweep or per search for room, as the memory store looks at. */
const SCAN = 1024;

/** The sessions of one list, least recently used first, at most a scan's worth. */
export function leastRecentlyUsed(sql: SqlStorage, pending: boolean): OrderRow[] {
  return rows<OrderRow>(
    sql,
    "SELECT id, last_used, created_at FROM mcp_sessions WHERE pending = ? ORDER BY use_seq LIMIT ?",
    pending ? 1 : 0,
    SCAN,
  );
}

/** The sessions last used at `before` or earlier, least recently used first, at most a scan's worth. */
export function usedBefore(sql: SqlStorage, before: number): OrderRow[] {
  return rows<OrderRow>(
    sql,
    "SELECT id, last_used, created_at FROM mcp_sessions WHERE last_used <= ? ORDER BY use_seq LIMIT ?",
    before,
    SCAN,
  );
}

/** The number of the last use stored (0 when none): one look at each list's end of its index. */
export function lastUse(sql: SqlStorage): number {
  const last = firstRow<{ last: number | null }>(
    sql,
    `SELECT max((SELECT max(use_seq) FROM mcp_sessions WHERE pending = 0),
      (SELECT max(use_seq) FROM mcp_sessions WHERE pending = 1)) AS last`,
  );
  return last?.last ?? 0;
}
