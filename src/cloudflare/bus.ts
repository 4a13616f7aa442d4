/**
 * `DurableBus`: the `Bus` of the object, reached from the Worker's own code. The object's handler
 * runs on an in-memory bus (every stream of the server is in the object), and this is that bus
 * seen from anywhere else: `publish` is one request to the object, and `subscribe` a request whose
 * answer is held open, one JSON line per message published on the channel from then on, after a
 * first line saying the object holds the subscription. It keeps the `Bus` contract
 * (test/durable-stores.test.ts runs it), so the object's messages can be read and written by code
 * that knows only `Bus`. On a Worker a subscription lives in the request that made it, as all of
 * that request's I/O does.
 */
import type { Bus } from "../types/stores.ts";
import { internalRequest, type InternalMessage } from "./internal.ts";
import { lineReader } from "./lines.ts";
import type { DurableObjectStub } from "./platform.ts";

export class DurableBus implements Bus {
  readonly #object: () => DurableObjectStub;

  /** `object` gives the stub of the object whose bus this is (see `McpWorker.bus`). */
  constructor(object: () => DurableObjectStub) {
    this.#object = object;
  }

  async publish(channel: string, message: unknown): Promise<void> {
    const response = await this.#send({ kind: "publish", channel, message });
    await response.body?.cancel();
  }

  async subscribe(channel: string, listener: (message: unknown) => void): Promise<() => void> {
    const response = await this.#send({ kind: "subscribe", channel });
    const reader = response.body!.getReader();
    const lines = lineReader(reader);
    if ((await lines.next()) !== "ready") {
      await reader.cancel().catch(() => {});
      throw new Error("mcp-h3: the object did not hold the subscription");
    }
    let open = true;
    void (async () => {
      for (let line = await lines.next(); open && line !== undefined; line = await lines.next()) {
        try {
          listener(JSON.parse(line));
        } catch {
          // One failing subscriber must not stop delivery to the others.
        }
      }
    })().catch(() => {});
    return () => {
      open = false;
      reader.cancel().catch(() => {});
    };
  }

  async #send(message: InternalMessage): Promise<Response> {
    const response = await this.#object().fetch(internalRequest(message));
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`mcp-h3: the object answered ${response.status} to a bus ${message.kind}`);
    }
    return response;
  }
}
