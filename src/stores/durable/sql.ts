/**
 * The part of a Durable Object's SQLite storage (`ctx.storage.sql`) the stores use, typed here so
 * the library needs no Cloudflare types package. In a SQLite-backed object every call runs
 * synchronously, in the object's one thread: a store method that reads and writes without an
 * `await` between is atomic by construction, which is what the stores rely on for their caps.
 */

/** A value SQLite stores and gives back. */
export type SqlValue = string | number | null | ArrayBuffer;

/** The cursor `exec` returns. */
export interface SqlCursor<Row> {
  toArray(): Row[];
  readonly rowsWritten: number;
}

/** `ctx.storage.sql` of a SQLite-backed Durable Object. */
export interface SqlStorage {
  exec<Row extends Record<string, SqlValue> = Record<string, SqlValue>>(
    query: string,
    ...bindings: SqlValue[]
  ): SqlCursor<Row>;
}

/** The rows of a query. */
export function rows<Row extends Record<string, SqlValue>>(
  sql: SqlStorage,
  query: string,
  ...bindings: SqlValue[]
): Row[] {
  return sql.exec<Row>(query, ...bindings).toArray();
}

/** The first row of a query, or undefined. */
export function firstRow<Row extends Record<string, SqlValue>>(
  sql: SqlStorage,
  query: string,
  ...bindings: SqlValue[]
): Row | undefined {
  return sql.exec<Row>(query, ...bindings).toArray()[0];
}
