/** Watching what a test must not cause: unhandled rejections and lines in the host's console. */
import { afterEach, beforeEach } from "vitest";

export interface ProcessWatch {
  /** Reasons of `unhandledRejection` events since the test started. */
  readonly rejections: unknown[];
  /** Console lines (`error`, `warn`, `log`, `info`) written since the test started. */
  readonly lines: string[];
}

/**
 * Collects unhandled rejections and console output during each test of the calling file. The
 * console is silenced while collecting, so the test decides whether a line is a failure.
 */
export function watchProcess(): ProcessWatch {
  const watch = { rejections: [] as unknown[], lines: [] as string[] };
  const onRejection = (reason: unknown): void => void watch.rejections.push(reason);
  const saved = { error: console.error, warn: console.warn, log: console.log, info: console.info };
  beforeEach(() => {
    watch.rejections.length = 0;
    watch.lines.length = 0;
    process.on("unhandledRejection", onRejection);
    for (const name of ["error", "warn", "log", "info"] as const) {
      console[name] = (...args: unknown[]) => void watch.lines.push(`${name}: ${args.map(String).join(" ")}`);
    }
  });
  afterEach(() => {
    process.off("unhandledRejection", onRejection);
    Object.assign(console, saved);
  });
  return watch;
}
