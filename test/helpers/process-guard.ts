/**
 * The process-level guard of the hostile suite and the fuzzer: an unhandled rejection or an uncaught
 * exception ends a Node server, so any one seen while a test runs fails that test.
 */
import { afterAll, afterEach, beforeAll, expect } from "vitest";

/** What the guard saw since the last check. */
export interface ProcessFaults {
  readonly seen: string[];
}

function describeFault(kind: string, value: unknown): string {
  const text = value instanceof Error ? `${value.name}: ${value.message}` : String(value);
  return `${kind}: ${text.slice(0, 300)}`;
}

/**
 * Starts listening for `unhandledRejection` and `uncaughtException` (call it at the top of a test
 * file, or let {@link guardProcess} do it for a whole file).
 */
export function watchProcess(): { faults: ProcessFaults; stop: () => void } {
  const seen: string[] = [];
  const onRejection = (reason: unknown): void => void seen.push(describeFault("unhandledRejection", reason));
  const onException = (error: unknown): void => void seen.push(describeFault("uncaughtException", error));
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  return {
    faults: { seen },
    stop: () => {
      process.off("unhandledRejection", onRejection);
      process.off("uncaughtException", onException);
    },
  };
}

/** Fails each test of the file during which an unhandled rejection or uncaught exception fired. */
export function guardProcess(): void {
  let watcher: ReturnType<typeof watchProcess> | undefined;
  beforeAll(() => {
    watcher = watchProcess();
  });
  afterEach(async () => {
    // Rejections are reported after a turn of the event loop: give them a moment to surface.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const seen = watcher!.faults.seen.splice(0);
    expect(seen, "the process saw an unhandled rejection or an uncaught exception").toEqual([]);
  });
  afterAll(() => watcher?.stop());
}
