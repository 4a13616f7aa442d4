/**
 * examples/auth-jwks/verifiers.ts against real local HTTP servers: a JWKS served from a key pair made here,
 * tokens signed with it (good, expired, for another audience or issuer, without scope, forged), and an RFC 7662
 * introspection endpoint. A bad token gives `undefined` (401); an unreachable authorization server throws (503).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIntrospectionVerifier, createJwtVerifier } from "../examples/auth-jwks/verifiers.ts";

const ISSUER = "https://auth.example.com";
const AUDIENCE = "https://mcp.example.com/mcp";
const KID = "key-1";

type Route = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A loopback HTTP server answering every request with `route`; returns its base URL and a close. */
async function httpServer(route: Route): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => route(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

describe("createJwtVerifier (JWKS)", () => {
  let signingKey: CryptoKey;
  let otherKey: CryptoKey;
  let jwks: { url: string; server: Server };
  let jwksFetches = 0;

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256");
    signingKey = pair.privateKey;
    otherKey = (await generateKeyPair("RS256")).privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: "RS256", use: "sig" };
    jwks = await httpServer((_req, _body, res) => {
      jwksFetches++;
      json(res, 200, { keys: [publicJwk] });
    });
  });
  afterAll(() => closeServer(jwks.server));

  /** A token with the usual claims, any of which `claims` overrides (undefined removes it). */
  function sign(claims: JWTPayload = {}, key: CryptoKey = signingKey, kid = KID): Promise<string> {
    const payload: JWTPayload = {
      iss: ISSUER,
      aud: AUDIENCE,
      sub: "user-42",
      client_id: "client-7",
      scope: "files:read files:write",
      exp: nowSeconds() + 300,
      ...claims,
    };
    for (const name of Object.keys(payload)) if (payload[name] === undefined) delete payload[name];
    return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid }).setIssuedAt().sign(key);
  }

  const verifier = () => createJwtVerifier({ jwksUrl: `${jwks.url}/jwks.json`, issuer: ISSUER, audience: AUDIENCE });

  it("admits a good token: sub → subject, scope → scopes, exp → expiresAt, the key set fetched once", async () => {
    const verify = verifier();
    const before = jwksFetches;
    const exp = nowSeconds() + 300;
    const identity = await verify(await sign({ exp }));
    expect(identity).toMatchObject({
      subject: "user-42",
      scopes: ["files:read", "files:write"],
      clientId: "client-7",
      expiresAt: exp,
      extra: { iss: ISSUER, aud: AUDIENCE },
    });
    await verify(await sign());
    expect(jwksFetches - before).toBe(1);
  });

  it("admits a token without scope, granting none", async () => {
    const identity = await verifier()(await sign({ scope: undefined }));
    expect(identity?.scopes).toEqual([]);
    expect(identity?.subject).toBe("user-42");
  });

  it.each<[string, () => Promise<string>]>([
    ["an expired token", () => sign({ exp: nowSeconds() - 120 })],
    ["a token for another audience", () => sign({ aud: "https://other.example.com/mcp" })],
    ["a token from another issuer", () => sign({ iss: "https://evil.example.com" })],
    ["a token without exp", () => sign({ exp: undefined })],
    ["a token signed by another key under the same kid", () => sign({}, otherKey)],
    ["a token whose kid the key set lacks", () => sign({}, otherKey, "key-unknown")],
    ["an unsigned token (alg none)", async () => `${b64({ alg: "none" })}.${b64({ iss: ISSUER, aud: AUDIENCE })}.`],
    ["a string that is no JWT", async () => "not-a-jwt"],
  ])("refuses %s with undefined", async (_name, token) => {
    await expect(verifier()(await token())).resolves.toBeUndefined();
  });

  it("throws, rather than calling the token bad, when the key set cannot be fetched", async () => {
    const broken = await httpServer((_req, _body, res) => json(res, 500, { error: "down" }));
    try {
      const verify = createJwtVerifier({ jwksUrl: `${broken.url}/jwks.json`, issuer: ISSUER, audience: AUDIENCE });
      await expect(verify(await sign())).rejects.toThrow(/200 OK/);
    } finally {
      await closeServer(broken.server);
    }
  });
});

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

describe("createIntrospectionVerifier (RFC 7662)", () => {
  const CLIENT_ID = "mcp server";
  const CLIENT_SECRET = "s3cret:&=";
  /** What the endpoint says of each token; unknown tokens are inactive. */
  const answers: Record<string, unknown> = {};
  const seen: { contentType?: string; authorization?: string; form?: URLSearchParams }[] = [];
  let endpoint: { url: string; server: Server };

  beforeAll(async () => {
    const exp = nowSeconds() + 300;
    Object.assign(answers, {
      good: { active: true, sub: "user-42", scope: "files:read", client_id: "client-7", exp, aud: [AUDIENCE] },
      inactive: { active: false },
      expired: { active: true, sub: "user-42", exp: nowSeconds() - 10, aud: AUDIENCE },
      "other-audience": { active: true, sub: "user-42", exp, aud: "https://other.example.com/mcp" },
      "no-audience": { active: true, sub: "user-42", exp },
      "not-json": "<html>",
    });
    const expected = `Basic ${Buffer.from(
      `${encodeURIComponent("mcp server").replace("%20", "+")}:${encodeURIComponent(CLIENT_SECRET)}`,
    ).toString("base64")}`;
    endpoint = await httpServer((req, body, res) => {
      const form = new URLSearchParams(body);
      seen.push({ contentType: req.headers["content-type"], authorization: req.headers.authorization, form });
      if (req.method !== "POST" || req.headers.authorization !== expected) return json(res, 401, {});
      const answer = answers[form.get("token") ?? ""] ?? { active: false };
      if (typeof answer === "string") return void res.writeHead(200, { "content-type": "text/html" }).end(answer);
      json(res, 200, answer);
    });
  });
  afterAll(() => closeServer(endpoint.server));

  const verifier = (overrides: { clientSecret?: string } = {}) =>
    createIntrospectionVerifier({
      introspectionUrl: `${endpoint.url}/introspect`,
      clientId: CLIENT_ID,
      clientSecret: overrides.clientSecret ?? CLIENT_SECRET,
      audience: AUDIENCE,
    });

  it("admits an active token, POSTing it as a form with the server's Basic credentials", async () => {
    seen.length = 0;
    const identity = await verifier()("good");
    expect(identity).toMatchObject({
      subject: "user-42",
      scopes: ["files:read"],
      clientId: "client-7",
      expiresAt: expect.any(Number),
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.contentType).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(seen[0]!.form!)).toEqual({ token: "good", token_type_hint: "access_token" });
  });

  it.each(["inactive", "expired", "other-audience", "no-audience", "unknown-token"])(
    "refuses %s with undefined",
    async (token) => {
      await expect(verifier()(token)).resolves.toBeUndefined();
    },
  );

  it("throws when the endpoint refuses this server's credentials (503, not 401, for the client)", async () => {
    await expect(verifier({ clientSecret: "wrong" })("good")).rejects.toThrow(/HTTP 401/);
  });

  it("throws when the endpoint answers something other than JSON", async () => {
    await expect(verifier()("not-json")).rejects.toThrow();
  });

  it("throws when the endpoint cannot be reached", async () => {
    const gone = await httpServer(() => {});
    const url = gone.url;
    await closeServer(gone.server);
    const verify = createIntrospectionVerifier({ introspectionUrl: url, clientId: "a", clientSecret: "b" });
    await expect(verify("good")).rejects.toThrow();
  });
});
