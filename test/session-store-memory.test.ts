/**
 * The memory session store (the default) against the SessionStore contract. What only it shows (its
 * sweep on access, the bounded scan past live sessions, its counts) is in unit/memory-stores.test.ts.
 */
import { MemorySessionStore } from "../src/index.ts";
import { describeSessionStoreContract } from "./helpers/session-store-contract.ts";

// Without reservePrincipal each process counts its own sessions per principal: exact for the memory store, used by one process.
describeSessionStoreContract("MemorySessionStore", (bounds) => new MemorySessionStore(bounds), {
  without: ["reservePrincipal", "releasePrincipal"],
});
