/**
 * The listeners a task store holds in this process, by task: bounded per task and in all, each
 * released by the function its registration returned. A message is handed to each listener as its
 * own copy (parsed from one JSON text), so a listener that changes what it got changes nothing for
 * the others.
 */
import type { TaskMessage } from "../types/tasks.ts";

/** Bounds of {@link TaskListeners}. */
export interface TaskListenerBounds {
  /** Most listeners on one task. */
  readonly maxListenersPerTask: number;
  /** Most listeners on all tasks together. */
  readonly maxListeners: number;
}

/** A listener was refused: the task, or the store, holds its most listeners. */
export class TaskListenersFullError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaskListenersFullError";
  }
}

type Listener = (message: TaskMessage) => void;

export class TaskListeners {
  readonly #bounds: TaskListenerBounds;
  readonly #byTask = new Map<string, Set<Listener>>();
  #count = 0;

  constructor(bounds: TaskListenerBounds) {
    this.#bounds = bounds;
  }

  /** Listeners held, on all tasks. */
  get size(): number {
    return this.#count;
  }

  /** Tasks with at least one listener. */
  get taskCount(): number {
    return this.#byTask.size;
  }

  /** Whether `taskId` has a listener. */
  has(taskId: string): boolean {
    return this.#byTask.has(taskId);
  }

  /**
   * Registers `listener` (the same function twice counts as two); throws {@link TaskListenersFullError}
   * at a bound. `released` is called when the task's last listener goes. Returns the release, which
   * does its work once however often it is called.
   */
  add(taskId: string, listener: Listener, released?: (taskId: string) => void): () => void {
    let listeners = this.#byTask.get(taskId);
    if ((listeners?.size ?? 0) >= this.#bounds.maxListenersPerTask) {
      throw new TaskListenersFullError(
        `task store: task holds its most listeners (${this.#bounds.maxListenersPerTask})`,
      );
    }
    if (this.#count >= this.#bounds.maxListeners) {
      throw new TaskListenersFullError(`task store: it holds its most listeners (${this.#bounds.maxListeners})`);
    }
    if (!listeners) this.#byTask.set(taskId, (listeners = new Set()));
    // A wrapper of its own, so that one function registered twice is two listeners, released one by one.
    const entry: Listener = (message) => listener(message);
    listeners.add(entry);
    this.#count++;
    return () => {
      if (!listeners.delete(entry)) return;
      this.#count--;
      if (listeners.size === 0 && this.#byTask.get(taskId) === listeners) {
        this.#byTask.delete(taskId);
        released?.(taskId);
      }
    };
  }

  /** Hands `text` (a {@link TaskMessage} as JSON) to the task's listeners, each its own copy. */
  deliver(taskId: string, text: string): void {
    const listeners = this.#byTask.get(taskId);
    if (!listeners) return;
    // A snapshot: a listener that subscribes or releases while it runs changes who gets this one.
    for (const listener of Array.from(listeners)) {
      try {
        listener(JSON.parse(text) as TaskMessage);
      } catch {
        // One failing listener must not stop delivery to the others.
      }
    }
  }

  /** Drops every listener (the store closes). */
  clear(): void {
    for (const listeners of this.#byTask.values()) listeners.clear();
    this.#byTask.clear();
    this.#count = 0;
  }
}
