/**
 * The Redis Cluster harness of issue 37 (test/helpers/redis-cluster.ts), against the real thing: three
 * masters and their replicas, reached with node-redis's cluster client; keys land on every master,
 * one hash tag keeps keys on one slot (a multi-key command across slots is refused), sharded pub/sub
 * (SPUBLISH/SSUBSCRIBE) reaches a subscriber, and a master killed is replaced by its replica.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createCluster } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisCluster, type RunningCluster } from "./helpers/redis-cluster.ts";

const run = promisify(execFile);

let cluster: RunningCluster;
beforeAll(async () => {
  cluster = await startRedisCluster({ replicasPerMaster: 1 });
}, 60_000);
afterAll(() => cluster?.stop());

const connect = async () => {
  const client = createCluster({ rootNodes: cluster.urls.map((url) => ({ url })) });
  client.on("error", () => {});
  await client.connect();
  return client;
};

/** A redis-cli command on one node, its answer trimmed. */
async function cli(port: number, ...args: string[]): Promise<string> {
  return (await run("redis-cli", ["-p", String(port), ...args])).stdout.trim();
}

describe("a 3-master Redis Cluster with replicas", () => {
  it("spreads keys over the masters, keeps a hash tag's keys on one slot, and a node refuses a cross-slot command", async () => {
    const client = await connect();
    for (let i = 0; i < 30; i++) await client.set(`spread:${i}`, String(i));
    const perMaster = await Promise.all(cluster.masterPorts.map((port) => cli(port, "dbsize")));
    expect(
      perMaster.every((count) => Number(count) > 0),
      JSON.stringify(perMaster),
    ).toBe(true);
    await client.mSet([
      ["{s1}:a", "1"],
      ["{s1}:b", "2"],
    ]);
    expect(await client.mGet(["{s1}:a", "{s1}:b"])).toEqual(["1", "2"]);
    expect(await cli(cluster.masterPorts[0]!, "mget", "{s1}:a", "{s2}:a")).toMatch(/CROSSSLOT/);
    await client.close();
  }, 30_000);

  it("delivers sharded pub/sub across nodes", async () => {
    const publisher = await connect();
    const subscriber = await connect();
    const heard: string[] = [];
    await subscriber.sSubscribe("{s1}:channel", (message) => void heard.push(message));
    await publisher.sPublish("{s1}:channel", "hello");
    await expect.poll(() => heard, { timeout: 5_000 }).toEqual(["hello"]);
    await publisher.close();
    await subscriber.close();
  }, 30_000);

  it("promotes a killed master's replica: the keys it held are served again", async () => {
    const client = await connect();
    await client.set("{failover}:key", "kept");
    await client.close();
    const slot = await cli(cluster.masterPorts[0]!, "cluster", "keyslot", "{failover}:key");
    const counts = await Promise.all(cluster.masterPorts.map((port) => cli(port, "cluster", "countkeysinslot", slot)));
    const owner = cluster.masterPorts[counts.findIndex((count) => Number(count) > 0)]!;
    // Killed before its replica has the key, the master takes it along (Redis replicates after answering).
    await cluster.replicated(owner);
    await cluster.kill(owner);
    const survivor = cluster.masterPorts.find((port) => port !== owner)!;
    await cluster.failedOver(owner, survivor);
    const again = createCluster({ rootNodes: [{ url: `redis://127.0.0.1:${survivor}` }] });
    again.on("error", () => {});
    await again.connect();
    expect(await again.get("{failover}:key")).toBe("kept");
    await again.close();
  }, 60_000);
});
