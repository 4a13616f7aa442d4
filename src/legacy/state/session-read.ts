/** How a request reads its session from the store, with auth on or off. */
import type { SessionData, SessionStore } from "../../types/stores.ts";

/** A session that exists but was opened by another principal (left untouched). */
export const FOREIGN = "foreign";

/**
 * The session read for a request of `principal` (auth on): refreshed when it is the principal's,
 * undefined when unknown, expired or deleted, {@link FOREIGN} when another principal's, which is
 * then left untouched when the store can read without refreshing: `getOwned` in one step, else
 * `peek` then `get`, else (a store with neither) `get`, which refreshes it for whoever sends its
 * id. Rejects as the store does.
 */
export async function readSession(
  store: SessionStore,
  id: string,
  principal: string,
): Promise<SessionData | typeof FOREIGN | undefined> {
  let session: SessionData | undefined;
  if (store.getOwned) session = await store.getOwned(id, principal);
  else if (store.peek) {
    session = await store.peek(id);
    if (session && session.principal === principal) session = await store.get(id);
  } else session = await store.get(id);
  return session && session.principal !== principal ? FOREIGN : session;
}
