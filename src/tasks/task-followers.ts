/**
 * Status messages of a task, followed by many on one instance through one store subscription: a
 * store bounds the listeners of one task (16 by default), while any number of `tasks/result`
 * waiters (legacy) and `subscriptions/listen` streams (modern) may follow the same task. The
 * subscription is made by the first follower and released with the last.
 */
import type { TaskState, TaskStore } from "../types/tasks.ts";
import type { McpExtensionPoint } from "../types/extensions.ts";

/** Called with the task as it is now, on each status change from any instance. */
export type TaskFollower = (task: TaskState) => void;

interface Followed {
  readonly followers: Set<TaskFollower>;
  /** The store subscription; resolves its unsubscribe. */
  readonly ready: Promise<() => void>;
}

export class TaskFollowers {
  readonly #store: TaskStore;
  readonly #incidents: McpExtensionPoint["incidents"];
  readonly #byTask = new Map<string, Followed>();

  constructor(store: TaskStore, incidents: McpExtensionPoint["incidents"]) {
    this.#store = store;
    this.#incidents = incidents;
  }

  /**
   * Calls `follower` on each status message about `taskId` until the returned function is called
   * (once). Rejects, following nothing, when the store refuses the subscription.
   *
   * @example
   * const stop = await followers.follow(taskId, (task) => console.log(task.status));
   * stop();
   */
  async follow(taskId: string, follower: TaskFollower): Promise<() => void> {
    let followed = this.#byTask.get(taskId);
    if (!followed) {
      const followers = new Set<TaskFollower>();
      const ready = this.#store.subscribe(taskId, (message) => {
        if (message.type === "status") for (const each of followers) each(message.task);
      });
      const created: Followed = { followers, ready };
      followed = created;
      this.#byTask.set(taskId, created);
      ready.catch(() => {
        if (this.#byTask.get(taskId) === created) this.#byTask.delete(taskId);
      });
    }
    const joined = followed;
    // A function of its own, so that the same follower given twice is counted twice.
    const entry: TaskFollower = (task) => follower(task);
    joined.followers.add(entry);
    try {
      await joined.ready;
    } catch (error) {
      joined.followers.delete(entry);
      throw error;
    }
    return () => {
      if (!joined.followers.delete(entry) || joined.followers.size > 0) return;
      if (this.#byTask.get(taskId) === joined) this.#byTask.delete(taskId);
      this.#incidents.own(joined.ready.then((unsubscribe) => unsubscribe()));
    };
  }
}
