/**
 * The `resources/subscribe` URIs of the sessions, in a table of their own (no request but
 * (un)subscribe writes it; an update asks for one URI of one session).
 */
import { firstRow, type SqlStorage } from "./sql.ts";

export const SUBSCRIPTIONS_SCHEMA = [
  "CREATE TABLE IF NOT EXISTS mcp_subscriptions (session_id TEXT NOT NULL, uri TEXT NOT NULL, PRIMARY KEY (session_id, uri))",
];

export class SessionSubscriptions {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Adds `uri` unless the session holds `max` others (a count bounded by `max`). */
  add(id: string, uri: string, max: number): "subscribed" | "full" {
    if (this.holds(id, uri)) return "subscribed";
    const count = firstRow<{ n: number }>(
      this.#sql,
      "SELECT count(*) AS n FROM mcp_subscriptions WHERE session_id = ?",
      id,
    );
    if ((count?.n ?? 0) >= max) return "full";
    this.#sql.exec("INSERT INTO mcp_subscriptions (session_id, uri) VALUES (?, ?)", id, uri);
    return "subscribed";
  }

  remove(id: string, uri: string): void {
    this.#sql.exec("DELETE FROM mcp_subscriptions WHERE session_id = ? AND uri = ?", id, uri);
  }

  holds(id: string, uri: string): boolean {
    return (
      firstRow(this.#sql, "SELECT 1 AS held FROM mcp_subscriptions WHERE session_id = ? AND uri = ?", id, uri) !==
      undefined
    );
  }

  /** The session `id` ended: its subscriptions go. */
  forget(id: string): void {
    this.#sql.exec("DELETE FROM mcp_subscriptions WHERE session_id = ?", id);
  }
}
