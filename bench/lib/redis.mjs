/**
 * The bench's own redis-server for the Redis scenarios: found on PATH (Debian's `redis-server`
 * package) or the run fails loudly, started on a free loopback port with nothing written to disk,
 * stopped when the scenarios are done. The systems reach it through `BENCH_REDIS_URL`; the cluster
 * variant reaches the bench's own 3-master Redis Cluster through `BENCH_REDIS_CLUSTER_URLS`.
 */
import { execFileSync, spawn } from "node:child_process";
import { createServer, connect } from "node:net";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves when a PING on `port` is answered with PONG. */
function pong(port) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("error", () => resolve(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
  });
}

/** Starts redis-server; throws with the install command when it is not on PATH. */
export async function startBenchRedis() {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error(
      "redis-server is not on PATH: the Redis scenarios need it (apt-get install -y redis-server), or leave them out with --only",
    );
  }
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  const deadline = Date.now() + 10_000;
  while (!(await pong(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/**
 * The bench's own Redis Cluster: three masters on loopback, no replicas, no persistence, joined by
 * `redis-cli --cluster create` (the tests' harness, test/helpers/redis-cluster.ts, run as it is:
 * the bench's Node strips its types).
 */
export async function startBenchRedisCluster() {
  const { startRedisCluster } = await import("../../test/helpers/redis-cluster.ts");
  const cluster = await startRedisCluster({ replicasPerMaster: 0 });
  return { urls: cluster.urls, stop: () => cluster.stop() };
}

/** Connection options for a system on the bench's Redis: the cluster's (`-cluster` systems) or the single server's. */
export function benchRedisOptions(system, prefix) {
  if (system.endsWith("-cluster")) {
    const urls = process.env.BENCH_REDIS_CLUSTER_URLS;
    if (!urls)
      throw new Error("BENCH_REDIS_CLUSTER_URLS is not set: the runner starts a Redis Cluster for this system");
    return { clusterUrls: urls.split(","), prefix };
  }
  const url = process.env.BENCH_REDIS_URL;
  if (!url) throw new Error("BENCH_REDIS_URL is not set: the runner starts redis-server for this system");
  return { url, prefix };
}
