/** Pages of a list (`skills/list`, a directory read): the cursor is the offset of the page, as a decimal string. */
import { ErrorCode, McpError, echoValue } from "../index.ts";

/**
 * The page of `items` that `cursor` (client data) starts, and the cursor of the next one. A cursor
 * this server did not give (not a decimal offset within the list) is `-32602`.
 *
 * @example
 * pageOf(["a", "b", "c"], undefined, 2); // { page: ["a", "b"], nextCursor: "2" }
 */
export function pageOf<T>(items: readonly T[], cursor: unknown, pageSize: number): { page: T[]; nextCursor?: string } {
  let start = 0;
  if (cursor !== undefined) {
    // At most 9 digits: no number past what a list here can hold, and a linear check.
    const valid =
      typeof cursor === "string" && /^(?:0|[1-9][0-9]{0,8})$/.test(cursor) && Number(cursor) <= items.length;
    if (!valid) throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown cursor ${echoValue(cursor)}`);
    start = Number(cursor);
  }
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length ? { page, nextCursor: String(end) } : { page };
}
