/**
 * The auth pieces together, over real HTTP on h3 v2 and h3 v1: the `auth` option with the JWKS verifier of
 * examples/auth-jwks, the RFC 9728 metadata beside it. A client without a token gets a 401 whose challenge
 * leads the 2.x client's discovery to the metadata and its authorization server; a client with a signed token
 * connects and its tool sees the token's subject as principal.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  resourceUrlFromServerUrl,
} from "@modelcontextprotocol/client";
import { H3, toNodeHandler } from "h3";
import { createApp, toNodeListener } from "h3-v1";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJwtVerifier, type TokenVerifier } from "../examples/auth-jwks/verifiers.ts";
import {
  defineMcpHandler,
  defineProtectedResourceMetadata,
  defineTool,
  protectedResourceMetadataUrl,
} from "../src/index.ts";
import { CLIENTS } from "./helpers/clients.ts";
import { jsonOf } from "./helpers/results.ts";
import { HOSTS, type HostName } from "./helpers/hosts.ts";

const ISSUER = "https://auth.example.com";

const whoami = defineTool({
  name: "whoami",
  description: "Returns the caller as the handler sees it",
  handler: (event) => ({ principal: event.context.mcp!.principal ?? null, scopes: event.context.mcp!.auth?.scopes }),
});

describe.each(HOSTS)("auth with JWKS and metadata on %s", (host: HostName) => {
  let jwks: Server;
  let app: Server;
  let origin: string;
  let key: CryptoKey;
  let verify: TokenVerifier | undefined;

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256");
    key = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256" };
    jwks = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] })),
    );
    await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;

    app = createServer();
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    origin = `http://localhost:${(app.address() as AddressInfo).port}`;
    const resource = `${origin}/mcp`;
    verify = createJwtVerifier({ jwksUrl, issuer: ISSUER, audience: resource });
    const mcp = defineMcpHandler({
      name: "e2e",
      version: "1.0.0",
      tools: [whoami],
      auth: {
        validate: (token) => verify!(token),
        resourceMetadataUrl: protectedResourceMetadataUrl(resource),
        scopes: ["mcp:tools"],
      },
    });
    const metadata = defineProtectedResourceMetadata({
      authorizationServers: [ISSUER],
      scopesSupported: ["mcp:tools"],
    });
    const metadataPath = new URL(protectedResourceMetadataUrl(resource)).pathname;
    if (host === "h3-v2") {
      app.on("request", toNodeHandler(new H3().all("/mcp", mcp).all(metadataPath, metadata)));
    } else {
      const v1 = createApp();
      v1.use(metadataPath, metadata as never);
      v1.use("/mcp", mcp as never);
      app.on("request", toNodeListener(v1));
    }
  });
  afterAll(async () => {
    for (const server of [app, jwks]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  function sign(claims: JWTPayload = {}): Promise<string> {
    return new SignJWT({
      iss: ISSUER,
      aud: `${origin}/mcp`,
      sub: "alice",
      scope: "mcp:tools",
      exp: Math.floor(Date.now() / 1000) + 300,
      ...claims,
    })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .sign(key);
  }

  it("answers a tokenless request with 401 whose challenge leads to the metadata and its authorization server", async () => {
    const response = await fetch(`${origin}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(response.status).toBe(401);
    const challenge = extractWWWAuthenticateParams(response);
    expect(challenge.resourceMetadataUrl?.href).toBe(`${origin}/.well-known/oauth-protected-resource/mcp`);
    const metadata = await discoverOAuthProtectedResourceMetadata(`${origin}/mcp`, {
      resourceMetadataUrl: challenge.resourceMetadataUrl,
    });
    expect(metadata.authorization_servers).toEqual([ISSUER]);
    expect(metadata.resource).toBe(resourceUrlFromServerUrl(`${origin}/mcp`).href);
  });

  it.each(CLIENTS)("admits a signed token with $name; the principal is the token's subject", async (factory) => {
    const client = await factory.connect(`${origin}/mcp`, {}, await sign());
    try {
      const result = await client.callTool("whoami", {});
      expect(jsonOf(result)).toEqual({ principal: "alice", scopes: ["mcp:tools"] });
    } finally {
      await client.close();
    }
  });

  it.each<[string, JWTPayload, number]>([
    ["an expired token", { exp: Math.floor(Date.now() / 1000) - 600 }, 401],
    ["a token for another server", { aud: "https://other.example.com/mcp" }, 401],
    ["a token without the required scope", { scope: "files:read" }, 403],
  ])("refuses %s", async (_name, claims, status) => {
    const response = await fetch(`${origin}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${await sign(claims)}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(response.status).toBe(status);
  });
});
