/**
 * The `Bus` contract (src/types/stores.ts) as vitest cases, for any implementation: a message
 * published on one instance reaches every subscriber of its channel on every instance, once, as
 * the JSON data it was; channels are apart; once `subscribe` resolved the subscription holds, and
 * the function it resolved ends it. The interface promises no order between messages, nor what a
 * listener that throws does to the others, so neither is asserted; nor is delivery after a
 * connection drops (at most once, for a networked bus). A bus's test file calls
 * {@link describeBusContract} with a factory of networks; each case makes its own.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Bus } from "../../src/index.ts";
import { until } from "./task-store-contract.ts";

/**
 * A fresh bus, private to one case (its own channel prefix on a shared server): each call of
 * `instance` is one more instance on it, as another process would make; a bus that lives in one
 * process answers the same object each time.
 */
export interface BusNetwork {
  instance(): Bus | Promise<Bus>;
  /** Releases every instance made (their connections); called after each case. */
  close?(): Promise<void> | void;
}

export type BusFactory = () => BusNetwork | Promise<BusNetwork>;

/** Messages a listener got, and a way to wait for them. */
export class Heard {
  readonly messages: unknown[] = [];
  readonly listener = (message: unknown): void => {
    this.messages.push(message);
  };

  /** Resolves once `count` messages arrived. */
  received(count: number): Promise<void> {
    return until(() => this.messages.length >= count);
  }
}

/** Messages of every JSON kind a bus carries. */
const MESSAGES: unknown[] = [
  { method: "notifications/tools/list_changed" },
  { kind: "resource", uri: "docs://a", nested: { list: [1, "two", null, true], empty: {} } },
  ["an", "array"],
  'text with "quotes", a line break\nand unicode: é ✓',
  42,
  null,
];

export function describeBusContract(name: string, factory: BusFactory): void {
  describe(`${name}: the Bus contract`, () => {
    const networks: BusNetwork[] = [];
    /** Two instances of a fresh network: the publisher and the subscriber of most cases. */
    const pair = async (): Promise<[Bus, Bus, BusNetwork]> => {
      const network = await factory();
      networks.push(network);
      return [await network.instance(), await network.instance(), network];
    };
    afterEach(async () => {
      for (const network of networks.splice(0)) await network.close?.();
    });

    it("a message published on one instance reaches a subscriber on another, once, as the JSON data it was", async () => {
      const [a, b] = await pair();
      const heard = new Heard();
      await b.subscribe("changes", heard.listener);
      for (const message of MESSAGES) await a.publish("changes", message);
      await heard.received(MESSAGES.length);
      // No order is promised between messages: the same ones, each once.
      const sorted = (list: unknown[]): string[] => list.map((item) => JSON.stringify(item)).sort();
      expect(sorted(heard.messages)).toEqual(sorted(MESSAGES));
    });

    it("reaches every subscriber of the channel, on the publishing instance and the others", async () => {
      const [a, b, network] = await pair();
      const c = await network.instance();
      const listeners = [new Heard(), new Heard(), new Heard(), new Heard()];
      await a.subscribe("changes", listeners[0]!.listener);
      await b.subscribe("changes", listeners[1]!.listener);
      await b.subscribe("changes", listeners[2]!.listener);
      await c.subscribe("changes", listeners[3]!.listener);
      await a.publish("changes", { n: 1 });
      await b.publish("changes", { n: 2 });
      for (const heard of listeners) {
        await heard.received(2);
        expect(heard.messages).toHaveLength(2);
        expect(heard.messages).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
      }
    });

    it("keeps channels apart", async () => {
      const [a, b] = await pair();
      const [first, second] = [new Heard(), new Heard()];
      await b.subscribe("first", first.listener);
      await b.subscribe("second", second.listener);
      await a.publish("first", { to: "first" });
      await a.publish("second", { to: "second" });
      await a.publish("unheard", { to: "nobody" });
      await first.received(1);
      await second.received(1);
      // Each heard its own; by the time a later message reached both, a stray one would have too.
      await a.publish("first", { to: "first", again: true });
      await a.publish("second", { to: "second", again: true });
      await first.received(2);
      await second.received(2);
      expect(first.messages).toHaveLength(2);
      expect(first.messages).toEqual(expect.arrayContaining([{ to: "first" }, { to: "first", again: true }]));
      expect(second.messages).toHaveLength(2);
      expect(second.messages).toEqual(expect.arrayContaining([{ to: "second" }, { to: "second", again: true }]));
    });

    it("once unsubscribed, a listener hears nothing more, while others on its channel and instance still do", async () => {
      const [a, b] = await pair();
      const [leaving, staying] = [new Heard(), new Heard()];
      const leave = await b.subscribe("changes", leaving.listener);
      await b.subscribe("changes", staying.listener);
      await a.publish("changes", { n: 1 });
      await leaving.received(1);
      await staying.received(1);
      leave();
      await a.publish("changes", { n: 2 });
      // The listener still subscribed on the same instance heard it: the one that left would have too.
      await staying.received(2);
      expect(leaving.messages).toEqual([{ n: 1 }]);
    });

    it("a channel's last listener leaving and a new one subscribing at once: the new one hears what follows, the old one nothing", async () => {
      const [a, b] = await pair();
      for (let round = 0; round < 5; round++) {
        const [old, fresh] = [new Heard(), new Heard()];
        const leave = await b.subscribe(`channel-${round}`, old.listener);
        leave();
        await b.subscribe(`channel-${round}`, fresh.listener);
        await a.publish(`channel-${round}`, { round });
        await fresh.received(1);
        expect(fresh.messages).toEqual([{ round }]);
        expect(old.messages).toEqual([]);
      }
    });

    it("a message published to a channel nobody hears, or whose listeners all left, is dropped without error", async () => {
      const [a, b] = await pair();
      await expect(a.publish("nobody-listens", { n: 1 })).resolves.toBeUndefined();
      const leave = await b.subscribe("once-heard", () => {});
      leave();
      await expect(a.publish("once-heard", { n: 2 })).resolves.toBeUndefined();
    });
  });
}
