/**
 * The connection of one response, as its channel watches it: a signal and watchers aborted once
 * it closes. Signals are costly to create, so nothing is built, and the request's disconnect is
 * not listened to, until someone asks (the hot path never does).
 */
import type { CloseWatcher } from "./channel-options.ts";

/** The reason given to watchers when the client went away. */
export const CONNECTION_CLOSED = new Error("The client closed the connection");

export class Transport {
  #disconnect: () => AbortSignal;
  #onDisconnect: () => void;
  #signal: AbortController | undefined;
  #watchers: CloseWatcher[] | undefined;
  #watching = false;
  #closed = false;

  /**
   * @param disconnect the request's disconnect signal, read only once someone watches
   * @param onDisconnect called when that signal aborts (the channel closes its response)
   */
  constructor(disconnect: () => AbortSignal, onDisconnect: () => void) {
    this.#disconnect = disconnect;
    this.#onDisconnect = onDisconnect;
  }

  /** True once the connection closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Fires when the connection closes. */
  get signal(): AbortSignal {
    if (!this.#signal) {
      this.#signal = new AbortController();
      if (this.#closed) this.#signal.abort(CONNECTION_CLOSED);
      else this.#watch();
    }
    return this.#signal.signal;
  }

  /** Aborts `watcher` when the connection closes (at once if it already has). */
  onClose(watcher: CloseWatcher): void {
    if (this.#closed) {
      watcher.abort(CONNECTION_CLOSED);
      return;
    }
    (this.#watchers ??= []).push(watcher);
    this.#watch();
  }

  /** Records the close (once): the signal and every watcher abort. */
  markClosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#signal?.abort(CONNECTION_CLOSED);
    const watchers = this.#watchers;
    this.#watchers = undefined;
    if (watchers) for (const watcher of watchers) watcher.abort(CONNECTION_CLOSED);
  }

  /** Starts listening for the request's disconnect (SSE bodies also notice it through `cancel()`). */
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    const disconnect = this.#disconnect();
    if (disconnect.aborted) this.#onDisconnect();
    else disconnect.addEventListener("abort", () => this.#onDisconnect(), { once: true });
  }
}
