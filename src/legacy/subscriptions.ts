/**
 * A session's `resources/subscribe` URIs. `SessionData.subscriptions` stays a plain array, so
 * any store can keep it; beside it this module keeps a Set per array, so the checks made for
 * every subscribe and every `resources/updated` cost O(1) instead of a scan.
 */
import type { SessionData } from "../types/stores.ts";

const sets = new WeakMap<string[], Set<string>>();

/** The session's subscriptions as a Set (built once per array a store hands out). */
export function subscriptionsOf(session: SessionData): ReadonlySet<string> {
  return setOf(session);
}

/** Adds `uri`; false when it was there already. */
export function addSubscription(session: SessionData, uri: string): boolean {
  const set = setOf(session);
  if (set.has(uri)) return false;
  set.add(uri);
  session.subscriptions.push(uri);
  return true;
}

/** Removes `uri`; false when it was not there. */
export function removeSubscription(session: SessionData, uri: string): boolean {
  const set = setOf(session);
  if (!set.delete(uri)) return false;
  session.subscriptions.splice(session.subscriptions.indexOf(uri), 1);
  return true;
}

function setOf(session: SessionData): Set<string> {
  let set = sets.get(session.subscriptions);
  if (!set) sets.set(session.subscriptions, (set = new Set(session.subscriptions)));
  return set;
}
