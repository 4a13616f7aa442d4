/**
 * `tasks()`: the tasks extension, the manager and the wires plugged into one handler. One manager
 * serves both wires: the 2026-07-28 one (modern/wire.ts) and the 2025-11-25 one (legacy/wire.ts),
 * each plugged for its era only.
 */
import type { McpExtension } from "../types/extensions.ts";
import type { TaskStore, TasksOptions } from "../types/tasks.ts";
import { TaskManager } from "./manager.ts";
import { plugLegacyTasks } from "./legacy/wire.ts";
import { TASKS_EXTENSION, plugModernTasks } from "./modern/wire.ts";
import { checkTaskNumbers, resolveTasksOptions } from "./options.ts";

/**
 * The tasks extension over `store()` when the options name no store. The manager is made when the
 * extension is plugged in (once per handler); its work stops when the handler closes.
 */
export function tasksExtension(options: TasksOptions, defaultStore: () => TaskStore): McpExtension {
  checkTaskNumbers(options);
  return {
    name: TASKS_EXTENSION,
    plug(server) {
      const ownStore = options.store === undefined;
      const resolved = resolveTasksOptions(options, defaultStore);
      const manager = new TaskManager(resolved, server.incidents);
      plugModernTasks(server, manager);
      plugLegacyTasks(server, manager);
      server.onClose(async () => {
        manager.close();
        // A store given in the options is its owner's to close.
        if (ownStore) await resolved.store.close?.();
      });
    },
  };
}
