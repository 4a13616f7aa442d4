/**
 * The static bearer tokens of the auth tests and their `auth` options, with no test-runner import,
 * so a Worker bundled for workerd (test/fixtures/durable-mcp) can use them too.
 */
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
