/**
 * The memory bus (the default) against the Bus contract: one process, so every instance of a case's
 * network is the one bus object. What only it shows is in unit/memory-stores.test.ts.
 */
import { MemoryBus } from "../src/index.ts";
import { describeBusContract } from "./helpers/bus-contract.ts";

describeBusContract("MemoryBus", () => {
  const bus = new MemoryBus();
  return { instance: () => bus };
});
