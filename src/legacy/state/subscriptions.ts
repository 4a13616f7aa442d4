/**
 * A legacy session's `resources/subscribe` URIs live in the session store beside the session, not
 * in its data (see `SessionStore.subscribe`): what this module adds is who may subscribe and who
 * may still receive an update.
 */
import { mayReadResource } from "../../auth/resource-access.ts";
import { requestAccess } from "../../auth/tool-access.ts";
import type { CatalogSource } from "../../define/catalog.ts";
import type { SessionStore } from "../../types/stores.ts";
import type { GetStreamReader } from "./live.ts";

/**
 * Throws when a handler serving resources is given a session store without the subscription
 * methods: a store written before they existed would otherwise lose every subscription silently.
 */
export function requireSubscriptionMethods(store: SessionStore): void {
  const missing = (["subscribe", "unsubscribe", "isSubscribed"] as const).filter(
    (name) => typeof store[name] !== "function",
  );
  if (missing.length === 0) return;
  throw new TypeError(
    `mcp-h3: sessions.store must implement ${missing.join(", ")} to serve resources/subscribe: a session's ` +
      "subscriptions are kept by the store beside the session, no longer in its SessionData (see SessionStore)",
  );
}

/**
 * Whether the client reading a session's GET stream may be sent an update of `uri` now: what
 * `resources/read` of it would need, checked with the identity and the request of the connection
 * the stream is written to (its last one, when it was resumed), and the catalog as it is now
 * (`enabled` asked again). The stream's own identity, not whichever token the session's principal
 * used last: those bytes go to that connection, and a later request with a broader token must not
 * widen what a stream opened with a narrower one receives.
 */
export async function readerMayRead(catalogs: CatalogSource, reader: GetStreamReader, uri: string): Promise<boolean> {
  const identity = reader.caller?.identity;
  const found = catalogs.get(reader.event, identity?.scopes);
  const catalog = found instanceof Promise ? await found : found;
  return mayReadResource(catalog, uri, identity);
}

/**
 * Whether the client reading a session's GET stream may be sent what concerns the tool `name` (a
 * task of it): what calling it would need, judged as {@link readerMayRead} judges a read, on the
 * stream's own connection. False when the stream has no reader.
 */
export async function readerMayCall(
  catalogs: CatalogSource,
  reader: GetStreamReader | undefined,
  name: string,
): Promise<boolean> {
  if (!reader) return false;
  const identity = reader.caller?.identity;
  const found = catalogs.get(reader.event, identity?.scopes);
  const catalog = found instanceof Promise ? await found : found;
  return requestAccess(catalog, identity).mayCallTool(name);
}
