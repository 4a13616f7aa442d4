/** Closing, after each test, the clients the test opened. */
import { afterEach } from "vitest";

/** A list to push each opened client onto; after each test all are closed (a failing close is ignored). */
export function closeAfterEach<T extends { close(): Promise<void> }>(): T[] {
  const open: T[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})));
  });
  return open;
}
