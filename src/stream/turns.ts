/**
 * Waiting for a turn of the event loop, where pending I/O (socket writes) gets to run.
 *
 * setImmediate runs right after pending I/O (Node, Bun), where setTimeout(0) waits at least 1 ms;
 * runtimes without it (Workers, Deno) use the timer. Both are read at each call, so fake timers
 * in tests apply.
 */

/** Runs `callback` after a turn of the event loop (I/O included). */
export function afterTurn(callback: () => void): void {
  const immediate = (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate;
  if (immediate) immediate(callback);
  else setTimeout(callback, 0);
}

/** Resolves after a turn of the event loop (I/O included). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => afterTurn(resolve));
}
