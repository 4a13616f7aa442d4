/**
 * Legacy sessions counted per principal (auth on), so one caller cannot take every place of
 * `sessions.maxSessions`. The count is of sessions opened through this process: with a store shared
 * by several instances each instance counts its own (see {@link PrincipalSessions.staleCandidates}
 * for how sessions ended elsewhere leave the count).
 */
import { UseOrder } from "../stores/use-order.ts";
import type { SessionData, SessionStore } from "../types/stores.ts";
import { stored } from "./store-failure.ts";

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
 * path where no session was stored ("full", a store that failed).
 */
export async function createCounted(
  store: SessionStore,
  counts: PrincipalSessions,
  session: SessionData,
): Promise<"created" | "full" | "principal-full"> {
  const { id, principal } = session;
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
