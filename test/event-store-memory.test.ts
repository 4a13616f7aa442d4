/**
 * The memory event store (the default) against the EventStore contract. What only it shows (its
 * ids, its counts of sessions and streams) is in unit/memory-stores.test.ts.
 */
import { MemoryEventStore } from "../src/index.ts";
import { describeEventStoreContract } from "./helpers/event-store-contract.ts";

describeEventStoreContract("MemoryEventStore", (bounds) => new MemoryEventStore(bounds));
