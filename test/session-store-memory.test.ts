/**
 * The memory session store (the default) against the SessionStore contract. What only it shows (its
 * sweep on access, the bounded scan past live sessions, its counts) is in unit/memory-stores.test.ts.
 */
import { MemorySessionStore } from "../src/index.ts";
import { describeSessionStoreContract } from "./helpers/session-store-contract.ts";

describeSessionStoreContract("MemorySessionStore", (bounds) => new MemorySessionStore(bounds));
