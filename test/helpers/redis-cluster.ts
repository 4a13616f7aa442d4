/**
 * A real Redis Cluster for tests: `redis-server --cluster-enabled yes` on free loopback ports, joined
 * by `redis-cli --cluster create` (Debian's redis-server and redis-tools; `.ci/run` installs them),
 * three masters and, when asked, one replica each. Nothing is written to disk but each node's
 * cluster file, in a temporary directory. `kill(port)` ends a node outright (SIGKILL), as a crashed
 * machine; with replicas (each synced with its master before the cluster is handed over), the
 * cluster promotes the dead master's replica a few node timeouts later.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { portIsFree } from "./free-port.ts";

const run = promisify(execFile);

/** How long a node may be unreachable before the cluster fails it over (ms): short, for tests. */
export const CLUSTER_NODE_TIMEOUT_MS = 1_000;

export interface RunningCluster {
  /** `redis://127.0.0.1:<port>` of every node, masters first. */
  readonly urls: string[];
  /** The ports of the nodes that were masters when the cluster was created. */
  readonly masterPorts: number[];
  /** Kills one node (SIGKILL) and resolves once it exited. */
  kill(port: number): Promise<void>;
  /** `CLUSTER INFO` of a node that is still up, as a record (`cluster_state`, …). */
  info(port: number): Promise<Record<string, string>>;
  /**
   * Resolves once the node on `alive` has marked the node on `dead` as failed and sees every slot
   * served again (its replica promoted): `cluster_state` alone still reads ok before the cluster
   * noticed the death.
   */
  failedOver(dead: number, alive: number): Promise<void>;
  /**
   * Resolves once every replica of the master on `port` has acknowledged all it was sent: Redis
   * replicates after answering a write, so a master killed at once can take its last writes along.
   */
  replicated(port: number): Promise<void>;
  /**
   * Moves `slots` hash slots, with their keys, from the master on `from` to the master on `to`
   * (`redis-cli --cluster reshard`: each key by MIGRATE, while clients keep writing; they are
   * redirected with ASK and MOVED meanwhile). Resolves once the move is done.
   */
  moveSlots(slots: number, from: number, to: number): Promise<void>;
  /** Kills every node and removes the directory. */
  stop(): Promise<void>;
}

/** Starts `3 × (1 + replicasPerMaster)` nodes and joins them; resolves once every node says `cluster_state:ok`. */
export async function startRedisCluster(options: { replicasPerMaster?: 0 | 1 } = {}): Promise<RunningCluster> {
  const replicas = options.replicasPerMaster ?? 0;
  const dir = await mkdtemp(join(tmpdir(), "mcp-h3-redis-cluster-"));
  const nodes = new Map<number, ChildProcess>();
  const stop = async (): Promise<void> => {
    await Promise.all([...nodes.keys()].map((port) => kill(port)));
    await rm(dir, { recursive: true, force: true });
  };
  const kill = (port: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const child = nodes.get(port);
      nodes.delete(port);
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  const info = async (port: number): Promise<Record<string, string>> => {
    const { stdout } = await run("redis-cli", ["-p", String(port), "cluster", "info"]);
    return Object.fromEntries(
      stdout
        .split(/\r?\n/)
        .filter((line) => line.includes(":"))
        .map((line) => line.split(":", 2) as [string, string]),
    );
  };
  try {
    const ports: number[] = [];
    ports.push(...(await clusterPorts(3 * (1 + replicas))));
    for (const port of ports) {
      const child = spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--save",
          "",
          "--appendonly",
          "no",
          // Its own directory: a master syncing a replica writes an RDB file there, and a node
          // starting where one lies would load its keys (then it is not empty, and cannot join).
          "--dir",
          dir,
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          join(dir, `nodes-${port}.conf`),
          "--cluster-node-timeout",
          String(CLUSTER_NODE_TIMEOUT_MS),
        ],
        { stdio: "ignore" },
      );
      nodes.set(port, child);
      await waitFor(async () => (await run("redis-cli", ["-p", String(port), "ping"])).stdout.trim() === "PONG");
    }
    // The first three ports become the masters; `--cluster-replicas` gives each one replica of the rest.
    try {
      await run("redis-cli", [
        "--cluster",
        "create",
        ...ports.map((port) => `127.0.0.1:${port}`),
        "--cluster-replicas",
        String(replicas),
        "--cluster-yes",
      ]);
    } catch (error) {
      const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
      throw new Error(`redis-cli --cluster create failed:\n${stdout}${stderr}`);
    }
    for (const port of ports) await waitFor(async () => (await info(port)).cluster_state === "ok");
    // A replica that has not synced with its master yet is not eligible to replace it.
    for (const port of ports.slice(3)) {
      await waitFor(async () =>
        (await run("redis-cli", ["-p", String(port), "info", "replication"])).stdout.includes("master_link_status:up"),
      );
    }
    const failedOver = async (dead: number, alive: number): Promise<void> => {
      await waitFor(async () => {
        const { stdout } = await run("redis-cli", ["-p", String(alive), "cluster", "nodes"]);
        const line = stdout.split("\n").find((entry) => entry.includes(`127.0.0.1:${dead}@`));
        const flags = line?.split(" ")[2]?.split(",") ?? [];
        return flags.includes("fail") && (await info(alive)).cluster_state === "ok";
      });
    };
    const replicated = async (port: number): Promise<void> => {
      await waitFor(async () => {
        const { stdout } = await run("redis-cli", ["-p", String(port), "info", "replication"]);
        const master = Number(/master_repl_offset:(\d+)/.exec(stdout)?.[1]);
        const replicas = [...stdout.matchAll(/^slave\d+:.*offset=(\d+)/gm)].map((match) => Number(match[1]));
        return replicas.length > 0 && replicas.every((offset) => offset >= master);
      });
    };
    const nodeId = async (port: number): Promise<string> =>
      (await run("redis-cli", ["-p", String(port), "cluster", "myid"])).stdout.trim();
    const moveSlots = async (slots: number, from: number, to: number): Promise<void> => {
      const [source, target] = await Promise.all([nodeId(from), nodeId(to)]);
      try {
        // prettier-ignore
        await run("redis-cli", [
          "--cluster", "reshard", `127.0.0.1:${from}`,
          "--cluster-from", source, "--cluster-to", target, "--cluster-slots", String(slots),
          "--cluster-yes",
        ], { maxBuffer: 64 * 1024 * 1024 });
      } catch (error) {
        const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
        throw new Error(`redis-cli --cluster reshard failed:\n${stdout.slice(-4_000)}${stderr}`);
      }
    };
    return {
      urls: ports.map((port) => `redis://127.0.0.1:${port}`),
      masterPorts: ports.slice(0, 3),
      kill,
      info,
      failedOver,
      replicated,
      moveSlots,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Ports for `count` cluster nodes: each node also listens on its port + 10,000 (the cluster bus), so
 * the nodes take a run of ports below 30,000 and their buses the run 10,000 above it, all free (no
 * node's port is another's bus, and no bus port is past 65,535).
 */
async function clusterPorts(count: number): Promise<number[]> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * (10_000 - count));
    const ports = Array.from({ length: count }, (_, i) => base + i);
    const free = await Promise.all(ports.flatMap((port) => [portIsFree(port), portIsFree(port + 10_000)]));
    if (free.every(Boolean)) return ports;
  }
}

/** Polls `check` until it holds (errors count as not yet); rejects after 20 s. */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error("the Redis cluster did not come up in 20 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
