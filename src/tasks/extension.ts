/**
 * `tasks()`: the tasks extension, the engine and the wires plugged into one handler. One engine
 * serves both wires: the 2026-07-28 one (modern/wire.ts) and the 2025-11-25 one (legacy/wire.ts),
 * each plugged for its era only.
 */
import type { McpExtension } from "../types/extensions.ts";
import type { TaskStore, TasksOptions } from "../types/tasks.ts";
import { TaskEngine } from "./engine.ts";
import { plugLegacyTasks } from "./legacy/wire.ts";
import { TASKS_EXTENSION, plugModernTasks } from "./modern/wire.ts";
import { resolveTasksOptions } from "./options.ts";

/**
 * The tasks extension over `store()` when the options name no store. The engine is made when the
 * extension is plugged in (once per handler); its work stops when the handler closes.
 */
export function tasksExtension(options: TasksOptions, defaultStore: () => TaskStore): McpExtension {
  return {
    name: TASKS_EXTENSION,
    plug(server) {
      const ownStore = options.store === undefined;
      const resolved = resolveTasksOptions(options, defaultStore);
      const engine = new TaskEngine(resolved, server.incidents);
      plugModernTasks(server, engine);
      plugLegacyTasks(server, engine);
      server.onClose(async () => {
        engine.close();
        // A store given in the options is its owner's to close.
        if (ownStore) await resolved.store.close?.();
      });
    },
  };
}
