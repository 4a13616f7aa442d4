/**
 * `MCP_ALLOWED_ORIGINS` / `MCP_ALLOWED_HOSTS` are read like the `allowedOrigins` / `allowedHosts`
 * options (spaces, letter case and trailing slashes do not matter), and an environment that refuses
 * to be read (Deno without --allow-env) counts as unset. Over real HTTP on h3 v2 and h3 v1.
 */
import { afterEach, describe, expect, it } from "vitest";
import { defineMcpHandler, type McpEventHandler } from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { post, type Answer } from "./helpers/rpc.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const NAMES = ["MCP_ALLOWED_ORIGINS", "MCP_ALLOWED_HOSTS"] as const;

function build(): McpEventHandler {
  return defineMcpHandler({ name: "allowed-env", version: "1.0.0" });
}

/** Builds the handler while `process.env` throws on every read, as Deno's does without --allow-env. */
function buildWithoutEnvAccess(): McpEventHandler {
  const env = Object.getOwnPropertyDescriptor(process, "env")!;
  const refusing = new Proxy(
    {},
    {
      get() {
        throw new Error('Requires env access to "MCP_ALLOWED_ORIGINS", run again with the --allow-env flag');
      },
    },
  );
  Object.defineProperty(process, "env", { ...env, value: refusing });
  try {
    return build();
  } finally {
    Object.defineProperty(process, "env", env);
  }
}

describe.each(HOSTS)("allow-list environment variables on %s", (hostName) => {
  let host: RunningHost | undefined;

  afterEach(async () => {
    for (const name of NAMES) delete process.env[name];
    await host?.close();
    host = undefined;
  });

  async function initialize(handler: McpEventHandler, headers: Record<string, string> = {}): Promise<Answer> {
    host ??= await startHost(hostName, handler);
    return post(host.url, INITIALIZE, headers);
  }

  it("entries with spaces, capitals and trailing slashes match like the options' own", async () => {
    process.env.MCP_ALLOWED_ORIGINS = " HTTPS://App.Example.com/ , ,https://other.example.com// ";
    process.env.MCP_ALLOWED_HOSTS = " LOCALHOST/ ,api.example.com";
    const handler = build();
    expect((await initialize(handler, { origin: "https://app.example.com" })).status).toBe(200);
    expect((await initialize(handler, { origin: "https://other.example.com" })).status).toBe(200);
    // The Host of these requests is localhost:<port>: allowed by the "LOCALHOST/" entry.
    expect((await initialize(handler)).status).toBe(200);
    const foreign = await initialize(handler, { origin: "https://evil.example.com" });
    expect(foreign.status).toBe(403);
  });

  it("an environment that throws on read counts as unset: loopback only", async () => {
    const handler = buildWithoutEnvAccess();
    expect((await initialize(handler)).status).toBe(200);
    expect((await initialize(handler, { origin: "http://localhost:3000" })).status).toBe(200);
    expect((await initialize(handler, { origin: "https://app.example.com" })).status).toBe(403);
  });
});
