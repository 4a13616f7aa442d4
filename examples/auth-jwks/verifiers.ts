/**
 * Two ways to check a bearer token for the `auth` option's `validate`: a JWT verified against the authorization
 * server's JWKS (with jose), and an opaque token asked about at an RFC 7662 introspection endpoint. Each returns
 * the identity on success, `undefined` for a token that is bad (the client gets 401), and throws when the
 * authorization server cannot be asked (the client gets 503: the token may well be good).
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";

/** What `validate` returns: the shape of mcp-h3's `AuthIdentity`. */
export interface VerifiedIdentity {
  subject?: string;
  scopes: string[];
  clientId?: string;
  /** Seconds since the epoch. */
  expiresAt?: number;
  extra?: Record<string, unknown>;
}

/** A token check as `auth.validate` takes it (the event is not needed here). */
export type TokenVerifier = (token: string) => Promise<VerifiedIdentity | undefined>;

/** `scope` is one space-delimited string (RFC 9068 §2.2.3, RFC 7662 §2.2); anything else grants nothing. */
function scopesOf(scope: unknown): string[] {
  return typeof scope === "string" ? scope.split(" ").filter((s) => s !== "") : [];
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export interface JwtVerifierOptions {
  /** The authorization server's JWKS URL (its metadata's `jwks_uri`). */
  jwksUrl: string | URL;
  /** The expected `iss`: the authorization server's issuer identifier. */
  issuer: string;
  /** The expected `aud`: this MCP server's canonical URL (RFC 8707), so tokens minted for others are refused. */
  audience: string;
  /** Signature algorithms accepted (default RS256 and ES256); never let the token choose. */
  algorithms?: string[];
  /** Leeway for `exp` and `nbf`, in seconds (default 30). */
  clockToleranceSeconds?: number;
}

/** jose's codes for a token that is bad in itself, as opposed to a key set that could not be fetched. */
const BAD_TOKEN_CODES = new Set([
  "ERR_JWT_EXPIRED",
  "ERR_JWT_CLAIM_VALIDATION_FAILED",
  "ERR_JWT_INVALID",
  "ERR_JWS_INVALID",
  "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
  "ERR_JOSE_ALG_NOT_ALLOWED",
  "ERR_JOSE_NOT_SUPPORTED",
  "ERR_JWKS_NO_MATCHING_KEY",
  "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
]);

/** The identity a verified access token's claims grant. */
export function identityOfClaims(payload: JWTPayload): VerifiedIdentity {
  return {
    subject: stringOr(payload.sub),
    scopes: scopesOf(payload.scope),
    clientId: stringOr(payload.client_id) ?? stringOr(payload.azp),
    expiresAt: payload.exp,
    extra: { ...payload },
  };
}

/**
 * A verifier of JWT access tokens signed by a key of the JWKS at `jwksUrl`, issued by `issuer` for `audience`,
 * with an `exp`. The key set is fetched on first use and cached by jose (fetched again for an unknown `kid`).
 */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const keys = createRemoteJWKSet(new URL(options.jwksUrl));
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: options.algorithms ?? ["RS256", "ES256"],
        clockTolerance: options.clockToleranceSeconds ?? 30,
        requiredClaims: ["exp"],
      });
      return identityOfClaims(payload);
    } catch (error) {
      if (BAD_TOKEN_CODES.has((error as { code?: unknown }).code as string)) return undefined;
      throw error; // the key set is unreachable or broken: 503, not a verdict on the token
    }
  };
}

export interface IntrospectionVerifierOptions {
  /** The authorization server's introspection endpoint (its metadata's `introspection_endpoint`). */
  introspectionUrl: string | URL;
  /** This server's credentials at the authorization server, sent as HTTP Basic (RFC 6749 §2.3.1). */
  clientId: string;
  clientSecret: string;
  /** When set, the answer's `aud` must name it (RFC 8707); an answer without `aud` is refused. */
  audience?: string;
  /** How long to wait for the endpoint, in milliseconds (default 5000). */
  timeoutMs?: number;
  /** The clock in seconds since the epoch, to judge `exp` (default: `Date.now() / 1000`). */
  now?: () => number;
}

function formEncoded(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function audienceMatches(aud: unknown, audience: string): boolean {
  return aud === audience || (Array.isArray(aud) && aud.includes(audience));
}

/**
 * A verifier of opaque tokens: each is POSTed to the RFC 7662 introspection endpoint, and only an answer with
 * `active: true`, an unexpired `exp` and (when `audience` is set) a matching `aud` admits it. Add a short cache
 * keyed by the token's hash if the endpoint is slow; here every request asks.
 */
export function createIntrospectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const url = new URL(options.introspectionUrl);
  const basic = `Basic ${btoa(`${formEncoded(options.clientId)}:${formEncoded(options.clientSecret)}`)}`;
  const now = options.now ?? (() => Date.now() / 1000);
  return async (token) => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        authorization: basic,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`token introspection answered HTTP ${response.status}`);
    }
    const answer: unknown = await response.json();
    if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
      throw new Error("token introspection answered something other than a JSON object");
    }
    const claims = answer as Record<string, unknown>;
    if (claims.active !== true) return undefined;
    const exp = typeof claims.exp === "number" ? claims.exp : undefined;
    if (exp !== undefined && exp <= now()) return undefined;
    if (options.audience !== undefined && !audienceMatches(claims.aud, options.audience)) return undefined;
    return {
      subject: stringOr(claims.sub),
      scopes: scopesOf(claims.scope),
      clientId: stringOr(claims.client_id),
      expiresAt: exp,
      extra: claims,
    };
  };
}
