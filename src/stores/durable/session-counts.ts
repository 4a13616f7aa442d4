/**
 * How many sessions each list (pending, initialized) holds, for the caps of `create`: counted once
 * per object's life and kept with every write after. A `count(*)` per `create` read every
 * session's index row (107 rows read by an `initialize` with 101 sessions kept,
 * test/cloudflare-costs.test.ts), and Cloudflare bills rows read.
 */
import { rows, type SqlStorage } from "./sql.ts";

export class SessionCounts {
  readonly #sql: SqlStorage;
  #counts: { pending: number; ready: number } | undefined;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** Sessions of one list. */
  of(pending: boolean): number {
    const counts = this.#read();
    return pending ? counts.pending : counts.ready;
  }

  /**
   * A write added (`by` 1) or removed (`by` -1) a session of one list. Not counted yet, the counts
   * are read later, after the write, as they are then.
   */
  adjust(pending: boolean, by: number): void {
    const counts = this.#counts;
    if (!counts) return;
    if (pending) counts.pending += by;
    else counts.ready += by;
  }

  #read(): { pending: number; ready: number } {
    if (this.#counts) return this.#counts;
    const counts = { pending: 0, ready: 0 };
    const found = rows<{ pending: number; n: number }>(
      this.#sql,
      "SELECT pending, count(*) AS n FROM mcp_sessions GROUP BY pending",
    );
    for (const row of found) {
      if (row.pending === 1) counts.pending = row.n;
      else counts.ready = row.n;
    }
    return (this.#counts = counts);
  }
}
