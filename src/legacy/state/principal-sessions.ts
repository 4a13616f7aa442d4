/**
 * Legacy sessions counted per principal (auth on), so one caller cannot take every place of
 * `sessions.maxSessions`. A store that counts them itself (`SessionStore.reservePrincipal`, as
 * `mcp-h3/redis` does across instances) is used when it can; otherwise the count is of sessions
 * opened through this process (see {@link PrincipalSessions.staleCandidates} for how sessions ended
 * elsewhere leave it).
 */
import { UseOrder } from "../../stores/use-order.ts";
import type { SessionData, SessionStore } from "../../types/stores.ts";
import { attempt, stored } from "./store-failure.ts";

/** A store that counts each principal's sessions itself. */
type CountingStore = SessionStore & Required<Pick<SessionStore, "reservePrincipal" | "releasePrincipal">>;

/** Whether the store counts each principal's sessions itself (then this process does not). */
export function countsPrincipals(store: SessionStore): store is CountingStore {
  return typeof store.reservePrincipal === "function" && typeof store.releasePrincipal === "function";
}

/**
 * Throws when the store has one of `reservePrincipal` and `releasePrincipal` without the other: the
 * engine would otherwise count in this process while the store meant to count, or never release.
 */
export function requirePrincipalPair(store: SessionStore): void {
  if ((typeof store.reservePrincipal === "function") === (typeof store.releasePrincipal === "function")) return;
  throw new TypeError(
    "mcp-h3: sessions.store must implement both reservePrincipal and releasePrincipal, or neither (see SessionStore)",
  );
}

interface Counted {
  lastUsed: number;
  /** Reserved for an `initialize` whose store call has not answered yet. */
  creating: boolean;
}

/** Most sessions of one principal looked up in the store when it is at its cap. */
const STALE_SCAN = 8;

export class PrincipalSessions {
  /** Most sessions one principal may hold. */
  readonly max: number;
  /** Most sessions counted in all (the store's own cap): past it the oldest-opened leaves the count. */
  readonly #maxCounted: number;
  #byPrincipal = new Map<string, UseOrder<Counted>>();
  /** The principal of each counted session, in order of opening. */
  #principalOf = new Map<string, string>();

  constructor(max: number, maxCounted: number) {
    this.max = max;
    this.#maxCounted = Math.max(max, maxCounted);
  }

  /** Number of sessions counted for `principal`. */
  countOf(principal: string): number {
    return this.#byPrincipal.get(principal)?.size ?? 0;
  }

  /**
   * Holds a place for a session about to be created: false, and nothing held, when the principal
   * already has {@link max}. Synchronous, so concurrent `initialize` requests cannot both take the
   * last place. Confirm with {@link created} or give back with {@link release}.
   */
  reserve(id: string, principal: string): boolean {
    let order = this.#byPrincipal.get(principal);
    if (order && order.size >= this.max) return false;
    if (!order) this.#byPrincipal.set(principal, (order = new UseOrder<Counted>()));
    order.add(id, { lastUsed: Date.now(), creating: true });
    this.#principalOf.set(id, principal);
    // Only a shared store can leave entries behind (sessions ended on another instance); a bound
    // keeps them from growing without end.
    if (this.#principalOf.size > this.#maxCounted) this.release(this.#principalOf.keys().next().value!);
    return true;
  }

  /** The store has the session: it counts from now on until it ends. */
  created(id: string): void {
    const counted = this.#entry(id);
    if (counted) counted.creating = false;
  }

  /** The session was used: it goes to the back of its principal's order. */
  touch(id: string): void {
    const principal = this.#principalOf.get(id);
    const order = principal === undefined ? undefined : this.#byPrincipal.get(principal);
    const counted = order?.get(id);
    if (counted) order!.touch(id, counted, Date.now());
  }

  /** The session ended (or was never created): its place is free. */
  release(id: string): void {
    const principal = this.#principalOf.get(id);
    if (principal === undefined) return;
    this.#principalOf.delete(id);
    const order = this.#byPrincipal.get(principal)!;
    order.delete(id);
    if (order.size === 0) this.#byPrincipal.delete(principal);
  }

  /**
   * The least recently used sessions of `principal` (at most a few, none still being created), to
   * look up in the store when the principal is at its cap: a shared store may have ended them
   * without this process hearing of it (expired keys, a DELETE served by another instance).
   */
  staleCandidates(principal: string): string[] {
    const candidates: string[] = [];
    const order = this.#byPrincipal.get(principal);
    if (!order) return candidates;
    for (const [id, counted] of order.entries) {
      if (candidates.length === STALE_SCAN) break;
      if (!counted.creating) candidates.push(id);
    }
    return candidates;
  }

  /** Forgets every count (the handler closes). */
  clear(): void {
    this.#byPrincipal.clear();
    this.#principalOf.clear();
  }

  #entry(id: string): Counted | undefined {
    const principal = this.#principalOf.get(id);
    return principal === undefined ? undefined : this.#byPrincipal.get(principal)?.get(id);
  }
}

/**
 * Stores a new session, counted for its principal: `"principal-full"` (and nothing stored) when the
 * principal already holds its most; else what the store answers. The place is given back on every
 * path where no session was stored ("full", a store that failed); `own` owns a give-back left to
 * run in the background.
 */
export async function createCounted(
  store: SessionStore,
  counts: PrincipalSessions,
  session: SessionData,
  own: (work: Promise<unknown>) => void,
): Promise<"created" | "full" | "principal-full"> {
  const { id, principal } = session;
  if (principal !== undefined && countsPrincipals(store)) return createCountedByStore(store, counts.max, session, own);
  if (principal !== undefined && !counts.reserve(id, principal)) {
    await dropEndedElsewhere(store, counts, principal);
    if (!counts.reserve(id, principal)) return "principal-full";
  }
  let outcome: "created" | "full" | undefined;
  try {
    outcome = await stored(() => store.create(session));
  } finally {
    if (outcome === "created") counts.created(id);
    else counts.release(id);
  }
  return outcome;
}

/**
 * {@link createCounted} with a store that counts: the place is reserved in the store (across
 * instances) before the create, and released when the create stores nothing: awaited after
 * `"full"` (so the principal's next `initialize` finds it free), in the background after a failure
 * (the store is likely still failing; it also drops a reservation whose session never appeared).
 */
async function createCountedByStore(
  store: CountingStore,
  max: number,
  session: SessionData,
  own: (work: Promise<unknown>) => void,
): Promise<"created" | "full" | "principal-full"> {
  const { id, principal } = session as SessionData & { principal: string };
  if (!(await stored(() => store.reservePrincipal(principal, id, max)))) return "principal-full";
  let outcome: "created" | "full" | undefined;
  try {
    outcome = await stored(() => store.create(session));
  } finally {
    if (outcome === undefined) own(attempt(() => store.releasePrincipal(principal, id)));
  }
  if (outcome === "full") await stored(() => store.releasePrincipal(principal, id));
  return outcome;
}

/**
 * A session of `principal` was deleted: a store that counts stops counting it. The session is gone
 * once `delete` answered, so a release that fails is an incident (`own`), not a failed DELETE (the
 * store drops the entry itself later, finding its key gone).
 */
export async function releaseEnded(
  store: SessionStore,
  principal: string,
  id: string,
  own: (work: Promise<unknown>) => void,
): Promise<void> {
  if (!countsPrincipals(store)) return;
  const release = attempt(() => store.releasePrincipal(principal, id));
  own(release);
  await release.catch(() => {});
}

/**
 * A shared store may have ended sessions this process still counts (expired keys, a DELETE served
 * by another instance): a few of the principal's least recently used are looked up, without
 * refreshing them, and those gone leave the count. A store without `peek` is not asked: `get` would
 * keep alive sessions their client left.
 */
async function dropEndedElsewhere(store: SessionStore, counts: PrincipalSessions, principal: string): Promise<void> {
  const peek = store.peek?.bind(store);
  if (!peek) return;
  for (const id of counts.staleCandidates(principal)) {
    if (!(await stored(() => peek(id)))) counts.release(id);
  }
}
