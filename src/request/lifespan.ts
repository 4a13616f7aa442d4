/**
 * The handler's startup resources: `setup` runs once, on the first request (edge runtimes allow no
 * I/O at startup), and every request waits for it. A failed setup is retried on the next request.
 */
import type { McpLifespan } from "../types/lifespan.ts";
import type { McpHandlerOptions } from "../types/options.ts";

export class Lifespan {
  /** What `setup` returned; an empty object until then (or without `setup`). */
  value: McpLifespan = {} as McpLifespan;
  /** False until `setup` finished; always true without `setup`. */
  ready: boolean;
  #setup: McpHandlerOptions["setup"];
  #close: McpHandlerOptions["close"];
  #pending: Promise<void> | undefined;

  constructor(setup: McpHandlerOptions["setup"], close: McpHandlerOptions["close"]) {
    this.#setup = setup;
    this.#close = close;
    this.ready = setup === undefined;
  }

  /** Runs `setup` once; concurrent first requests share one run. */
  start(): Promise<void> {
    if (this.#pending) return this.#pending;
    const pending = (async () => {
      this.value = await this.#setup!();
      this.ready = true;
    })();
    this.#pending = pending;
    // Forget a failure, so that the next request tries again.
    pending.catch(() => {
      if (this.#pending === pending) this.#pending = undefined;
    });
    return pending;
  }

  /** Runs `close` with what `setup` built, once. */
  async stop(): Promise<void> {
    if (!this.ready || !this.#close) return;
    const close = this.#close;
    this.#close = undefined;
    await close(this.value);
  }
}
