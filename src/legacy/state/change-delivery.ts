/**
 * Change notifications (`list_changed`, `resources/updated`) for the legacy GET streams of this
 * process: heard from the change feed (every instance's, through the bus), and written to each GET
 * stream whose session may receive it. Subscribed on first use, with the session routing between
 * instances when it is plugged in.
 */
import type { ChangeFeed, ChangeMessage } from "../../context/change-feed.ts";
import type { CatalogSource } from "../../define/catalog.ts";
import { notification, type JsonRpcNotification } from "../../protocol/jsonrpc.ts";
import type { ResponseChannel } from "../../stream/channel.ts";
import type { Incidents } from "../../http/incidents.ts";
import type { SessionStore } from "../../types/stores.ts";
import type { LiveRegistry, LiveSession } from "./live.ts";
import { StoreFailure } from "./store-failure.ts";
import { readerMayRead } from "./subscriptions.ts";

export interface GetStreamChangesOptions {
  live: LiveRegistry;
  store: SessionStore;
  incidents: Incidents;
  /** The definitions, to check that a GET stream's reader may read a resource it is told about. */
  catalogs: CatalogSource;
  /** Starts hearing from other instances, when they can be reached (see `routing.ts`). */
  hearOthers(): Promise<void> | undefined;
}

export class GetStreamChanges {
  readonly #options: GetStreamChangesOptions;
  #forwarding: Promise<void> | undefined;
  #unsubscribe: (() => void)[] = [];

  constructor(options: GetStreamChangesOptions) {
    this.#options = options;
  }

  /** Starts forwarding (once; again after a failure, which rejects with a {@link StoreFailure}). */
  start(feed: ChangeFeed): Promise<void> {
    return (this.#forwarding ??= this.#subscribe(feed).catch((error: unknown) => {
      this.stop();
      throw new StoreFailure(error);
    }));
  }

  /** Stops forwarding (the handler closes, or subscribing failed). */
  stop(): void {
    this.#forwarding = undefined;
    for (const stop of this.#unsubscribe.splice(0)) stop();
  }

  async #subscribe(feed: ChangeFeed): Promise<void> {
    this.#unsubscribe.push(await feed.listen((change) => this.#deliver(change)));
    await this.#options.hearOthers();
  }

  /** Each GET stream here gets the change on its own, so one failing store call stops no other. */
  #deliver(change: ChangeMessage): void {
    const message = notification(change.method, change.params);
    const uri = change.method === "notifications/resources/updated" ? String(change.params?.uri) : undefined;
    const { live, incidents } = this.#options;
    for (const [sessionId, entry] of live.entries()) {
      if (entry.getStream) incidents.own(this.#deliverTo(sessionId, entry, entry.getStream, message, uri));
    }
  }

  async #deliverTo(
    sessionId: string,
    live: LiveSession,
    stream: ResponseChannel,
    message: JsonRpcNotification,
    uri: string | undefined,
  ): Promise<void> {
    if (uri !== undefined) {
      // One URI looked up, whatever the session holds; a look, not a use (the idle timer stays).
      if (!(await this.#options.store.isSubscribed?.(sessionId, uri))) return;
      // Read when the update is sent, so a reader who lost the right to read it since subscribing gets nothing.
      const reader = live.getStreamReader;
      if (!reader || !(await readerMayRead(this.#options.catalogs, reader, uri))) return;
    }
    await stream.send(message);
  }
}
