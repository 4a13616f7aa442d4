/** Static bearer tokens for the auth tests: alice and bob (read, write), reader (read), and a few broken ones. */
import type { AuthIdentity, AuthOptions } from "../../src/index.ts";

export const TOKENS: Record<string, AuthIdentity> = {
  "alice-token": { subject: "alice", scopes: ["read", "write"] },
  "bob-token": { subject: "bob", scopes: ["read", "write"] },
  "reader-token": { subject: "reader", scopes: ["read"] },
  // No subject: the principal is the token's SHA-256.
  "anonymous-token": { scopes: ["read", "write"], clientId: "cli" },
  "nothing-token": { subject: "nobody", scopes: [] },
  "expired-token": { subject: "alice", scopes: ["read", "write"], expiresAt: 1_000_000_000 },
};

export const METADATA_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

/** `auth` options over {@link TOKENS}, with `overrides` on top. */
export function staticAuth(overrides: Partial<AuthOptions> = {}): AuthOptions {
  return {
    validate: (token) => TOKENS[token],
    resourceMetadataUrl: METADATA_URL,
    ...overrides,
  };
}

/** `Authorization: Bearer <token>` as a header record. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
