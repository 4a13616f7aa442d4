/**
 * The places each principal's sessions take (`SessionStore.reservePrincipal`), in the object's
 * SQLite storage next to the sessions: a place goes with its session, and a reservation never
 * followed by its session (the object stopped between the two) stops counting after a while.
 */
import { rows, type SqlStorage } from "./sql.ts";

/** How long a place reserved for a session not created yet counts. */
const RESERVATION_MS = 60_000;

export const PLACES_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS mcp_principal_places (principal TEXT NOT NULL, id TEXT NOT NULL,
    reserved_at INTEGER NOT NULL, PRIMARY KEY (principal, id))`,
  "CREATE INDEX IF NOT EXISTS mcp_principal_places_id ON mcp_principal_places (id)",
];

export class PrincipalPlaces {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Counts `id` for `principal` unless it holds `max` places already; the work is bounded by `max`. */
  reserve(principal: string, id: string, max: number, now: number): boolean {
    this.#sql.exec(
      `DELETE FROM mcp_principal_places WHERE principal = ? AND reserved_at <= ?
        AND id NOT IN (SELECT id FROM mcp_sessions)`,
      principal,
      now - RESERVATION_MS,
    );
    const counted = rows<{ id: string }>(
      this.#sql,
      "SELECT id FROM mcp_principal_places WHERE principal = ?",
      principal,
    );
    if (counted.some((row) => row.id === id)) return true;
    if (counted.length >= max) return false;
    this.#sql.exec(
      "INSERT INTO mcp_principal_places (principal, id, reserved_at) VALUES (?, ?, ?)",
      principal,
      id,
      now,
    );
    return true;
  }

  release(principal: string, id: string): void {
    this.#sql.exec("DELETE FROM mcp_principal_places WHERE principal = ? AND id = ?", principal, id);
  }

  /** The session `id` ended: its place is free. */
  forget(id: string): void {
    this.#sql.exec("DELETE FROM mcp_principal_places WHERE id = ?", id);
  }
}
