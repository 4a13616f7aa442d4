/**
 * The fuzzer with auth on (`--auth`): its servers validate bearer tokens, every message carries the
 * run's token, and a fraction of messages get their `Authorization` header mutated — dropped, empty,
 * another scheme, a malformed or huge token, an expired one, or another principal's valid token
 * (whose requests on the run's sessions must meet unknown sessions).
 */
import type { AuthIdentity, AuthOptions } from "../../src/index.ts";
import { chance, int, pick, type Random } from "./prng.ts";

/** The token every message of an auth run carries (principal "fuzz"). */
export const FUZZ_TOKEN = "fuzz-token";
/** Another principal's valid token, swapped in by the mutation. */
const OTHER_TOKEN = "fuzz-other-token";
const EXPIRED_TOKEN = "fuzz-expired-token";

const IDENTITIES: Record<string, AuthIdentity> = {
  [FUZZ_TOKEN]: { subject: "fuzz", scopes: ["read", "write"] },
  [OTHER_TOKEN]: { subject: "other", scopes: ["read"] },
  [EXPIRED_TOKEN]: { subject: "fuzz", scopes: ["read", "write"], expiresAt: 1_000_000_000 },
};

/** The fuzz servers' `auth` option: the three tokens above, anything else unknown (401). */
export const FUZZ_AUTH: AuthOptions = {
  validate: (token) => IDENTITIES[token],
  resourceMetadataUrl: "https://fuzz.example/.well-known/oauth-protected-resource/mcp",
};

/** The header every request of an auth run carries (none without auth). */
export function authHeaders(auth: boolean): Record<string, string> {
  return auth ? { authorization: `Bearer ${FUZZ_TOKEN}` } : {};
}

/** How often an auth run's message gets its `Authorization` header mutated. */
const AUTH_MUTATION_RATE = 0.15;

function mutatedAuthorization(random: Random): string | null {
  switch (int(random, 0, 9)) {
    case 0:
      return null;
    case 1:
      return pick(random, ["", "Bearer", "Bearer ", " Bearer fuzz-token", "Bearer  fuzz-token"]);
    case 2:
      return pick(random, ["Basic Zm9vOmJhcg==", "Token fuzz-token", "Bearerfuzz-token", "fuzz-token"]);
    case 3:
      return `bearer ${FUZZ_TOKEN}`;
    case 4:
      return `Bearer ${OTHER_TOKEN}`;
    case 5:
      return `Bearer ${EXPIRED_TOKEN}`;
    case 6:
      return `Bearer ${"t".repeat(int(random, 100, 10_000))}`;
    case 7:
      return pick(random, ["Bearer fuzz-tok\u00e9n", "Bearer a.b.c", "Bearer ,,,", `Bearer ${FUZZ_TOKEN}, Basic x`]);
    case 8:
      return `Bearer ${int(random, 0, 2 ** 31).toString(16)}${int(random, 0, 2 ** 31).toString(16)}`;
    default:
      return `Bearer ${FUZZ_TOKEN}${pick(random, ["x", "=", " ", "\t"])}`;
  }
}

/** Mutates the `Authorization` header of `headers` in place, sometimes; the mutation's name when it did. */
export function mutateAuthorization(random: Random, headers: Record<string, string>): string | undefined {
  if (!chance(random, AUTH_MUTATION_RATE)) return undefined;
  const value = mutatedAuthorization(random);
  if (value === null) delete headers.authorization;
  else headers.authorization = value;
  return "header:authorization";
}
