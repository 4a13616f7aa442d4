# workerd configuration: the bundled weather app worker (dist/worker.js), without Node.js compatibility.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .mcpWorker)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const mcpWorker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "dist/worker.js")],
  compatibilityDate = "2026-11-17",
  # Node.js compatibility is on by default from 2026-08-04: both flags turn it off.
  compatibilityFlags = ["no_nodejs_compat", "no_nodejs_compat_v2"],
);
