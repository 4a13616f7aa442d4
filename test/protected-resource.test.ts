/**
 * `defineProtectedResourceMetadata`: RFC 9728 metadata served over real HTTP on h3 v2 and h3 v1, found by the
 * real clients' discovery (the 1.x SDK and the 2.x client try the path-inserted URL, then the root), with
 * its CORS answers, its refusals, and `.fetch` without h3.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { discoverOAuthProtectedResourceMetadata as discoverV1 } from "@modelcontextprotocol/sdk/client/auth.js";
import { discoverOAuthProtectedResourceMetadata as discoverV2 } from "@modelcontextprotocol/client";
import { H3, toNodeHandler } from "h3";
import { createApp, toNodeListener } from "h3-v1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defineProtectedResourceMetadata,
  protectedResourceMetadataUrl,
  type ProtectedResourceMetadataOptions,
} from "../src/index.ts";
import type { WebEventHandler } from "../src/types/auth-helpers.ts";
import { HOSTS, type HostName } from "./helpers/hosts.ts";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";
const AS = "https://auth.example.com";

interface Running {
  origin: string;
  close(): Promise<void>;
}

/** Serves `routes` (path → handler, exact paths) on `host` at a random loopback port. */
async function serve(host: HostName, routes: Record<string, WebEventHandler>): Promise<Running> {
  let server: Server;
  if (host === "h3-v2") {
    const app = new H3();
    for (const [path, handler] of Object.entries(routes)) app.all(path, handler);
    server = createServer(toNodeHandler(app));
  } else {
    const app = createApp();
    // h3 v1 mounts by prefix ("/**" becomes "/"): the longest first, so a shorter one does not shadow it.
    for (const path of Object.keys(routes).sort((a, b) => b.length - a.length)) {
      app.use(path === "/**" ? "/" : path, routes[path] as never);
    }
    server = createServer(toNodeListener(app));
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A raw request with a Host of our choosing, which `fetch` would not send. */
function rawGet(origin: string, path: string, hostHeader: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "GET", headers: { host: hostHeader } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const derived: ProtectedResourceMetadataOptions = {
  authorizationServers: [AS],
  scopesSupported: ["files:read", "files:write"],
  resourceDocumentation: "https://docs.example.com/mcp",
};

describe.each(HOSTS)("protected-resource metadata on %s", (host) => {
  let server: Running;
  let rootOnly: Running;
  beforeAll(async () => {
    const handler = defineProtectedResourceMetadata(derived);
    server = await serve(host, { [`${WELL_KNOWN}/mcp`]: handler, "/**": handler });
    rootOnly = await serve(host, {
      [WELL_KNOWN]: defineProtectedResourceMetadata({ authorizationServers: [AS], resourcePath: "/mcp" }),
    });
  });
  afterAll(async () => {
    await server.close();
    await rootOnly.close();
  });

  it.each([
    ["the 1.x SDK", discoverV1],
    ["the 2.x client", discoverV2],
  ])("%s discovers it at the path-inserted URL, with the MCP URL as resource", async (_name, discover) => {
    const metadata = await discover(`${server.origin}/mcp`);
    expect(metadata).toEqual({
      resource: `${server.origin}/mcp`,
      authorization_servers: [AS],
      bearer_methods_supported: ["header"],
      scopes_supported: ["files:read", "files:write"],
      resource_documentation: "https://docs.example.com/mcp",
    });
  });

  it.each([
    ["the 1.x SDK", discoverV1],
    ["the 2.x client", discoverV2],
  ])("%s falls back to the root well-known URL", async (_name, discover) => {
    const metadata = await discover(`${rootOnly.origin}/mcp`);
    expect(metadata.resource).toBe(`${rootOnly.origin}/mcp`);
    expect(metadata.authorization_servers).toEqual([AS]);
  });

  it("answers GET as public, cacheable JSON that any origin may read", async () => {
    const response = await fetch(`${server.origin}${WELL_KNOWN}/mcp`, { headers: { origin: "https://app.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await response.json()).resource).toBe(`${server.origin}/mcp`);
  });

  it("answers a CORS preflight with 204 and the read methods", async () => {
    const response = await fetch(`${server.origin}${WELL_KNOWN}/mcp`, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "mcp-protocol-version",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe("*");
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await fetch(`${server.origin}${WELL_KNOWN}/mcp`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.text()).toBe("");
  });

  it("refuses other methods with 405 and the allowed ones", async () => {
    const response = await fetch(`${server.origin}${WELL_KNOWN}/mcp`, { method: "POST", body: "{}" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("takes the resource's origin from Host, not from a path that looks like one", async () => {
    const { port } = new URL(server.origin);
    const answer = await rawGet(server.origin, "//evil.example/x", `localhost:${port}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).resource).toBe(`http://localhost:${port}/mcp`);
  });
  it("never echoes a Host that makes no URL (h3 v1: 400; h3 v2: srvx has already replaced it)", async () => {
    const answer = await rawGet(server.origin, `${WELL_KNOWN}/mcp`, "bad host[");
    expect(answer.body).not.toContain("bad host");
    if (host === "h3-v1") expect(answer.status).toBe(400);
  });
});

describe("protected-resource metadata with a configured resource", () => {
  let server: Running;
  beforeAll(async () => {
    const handler = defineProtectedResourceMetadata({
      resource: "https://mcp.example.com/mcp",
      authorizationServers: [AS, "https://auth2.example.com"],
      resourceName: "Example MCP",
      maxAgeSeconds: 60,
    });
    server = await serve("h3-v1", { [WELL_KNOWN]: handler });
  });
  afterAll(() => server.close());

  it("serves the same document whatever Host the request names", async () => {
    const answer = await rawGet(server.origin, WELL_KNOWN, "attacker.example");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      resource: "https://mcp.example.com/mcp",
      authorization_servers: [AS, "https://auth2.example.com"],
      bearer_methods_supported: ["header"],
      resource_name: "Example MCP",
    });
  });
});

describe("protected-resource metadata through .fetch", () => {
  const handler = defineProtectedResourceMetadata({ authorizationServers: [AS], resourcePath: "/api/mcp" });

  it("serves a Web Request without h3", async () => {
    const response = handler.fetch(new Request(`https://mcp.example.com${WELL_KNOWN}/api/mcp`));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({
      resource: "https://mcp.example.com/api/mcp",
      authorization_servers: [AS],
      bearer_methods_supported: ["header"],
    });
  });

  it("is marked as an h3 v1 handler", () => {
    expect(handler.__is_handler__).toBe(true);
  });
});

describe("defineProtectedResourceMetadata options", () => {
  it.each<[string, ProtectedResourceMetadataOptions, RegExp]>([
    ["no authorization server", { authorizationServers: [] }, /at least one/],
    ["a relative authorization server", { authorizationServers: ["/auth"] }, /absolute URL/],
    ["a relative resource", { authorizationServers: [AS], resource: "mcp.example.com/mcp" }, /absolute URL/],
    ["a resource with a fragment", { authorizationServers: [AS], resource: "https://a.example/mcp#x" }, /fragment/],
    ["a resourcePath without a slash", { authorizationServers: [AS], resourcePath: "mcp" }, /start with/],
    ["a fractional max age", { authorizationServers: [AS], maxAgeSeconds: 1.5 }, /whole number/],
  ])("refuses %s when defined", (_name, options, message) => {
    expect(() => defineProtectedResourceMetadata(options)).toThrow(message);
  });
});

describe("protectedResourceMetadataUrl", () => {
  it.each([
    ["https://mcp.example.com/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"],
    ["https://mcp.example.com/public/mcp/", "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp"],
    ["https://mcp.example.com", "https://mcp.example.com/.well-known/oauth-protected-resource"],
    ["http://localhost:3000/mcp?tenant=a", "http://localhost:3000/.well-known/oauth-protected-resource/mcp?tenant=a"],
  ])("inserts the well-known path into %s", (resource, expected) => {
    expect(protectedResourceMetadataUrl(resource)).toBe(expected);
  });

  it("refuses a relative URL", () => {
    expect(() => protectedResourceMetadataUrl("/mcp")).toThrow(/absolute URL/);
  });
});
