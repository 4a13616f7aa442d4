/**
 * Watching the `mcp/` folders of a dev server: any change under them (a file added, edited,
 * removed, renamed) calls `onChange` once per burst of events, so that an editor's save (which
 * may write, rename and touch in a row) gives one reload.
 */
import { watch, type FSWatcher } from "node:fs";

/** How long a burst of events is waited out before the reload. */
export const SETTLE_MS = 80;

/** Watches `folders` (recursively; those that do not exist are left out) until the returned stop is called. */
export function watchFolders(folders: readonly string[], onChange: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watchers: FSWatcher[] = [];
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
    // A dev server closing must not wait for a pending reload.
    timer.unref?.();
  };
  for (const folder of folders) {
    try {
      const watcher = watch(folder, { recursive: true }, changed);
      // A folder removed while watched: the watcher errors; stop it rather than crash the worker.
      watcher.on("error", () => watcher.close());
      watcher.unref();
      watchers.push(watcher);
    } catch {
      // The folder does not exist (yet): a new mcp/ folder needs a restart of the dev server.
    }
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers.splice(0)) watcher.close();
  };
}
