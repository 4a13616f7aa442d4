/**
 * What a token grants, read from what `auth.validate` returned as from any untrusted input: its
 * shape is checked once per returned object, and the checked copy is frozen and private. Every
 * decision (scopes, principal, expiry) reads that copy; handlers get their own deep copy per
 * request (`Caller.copyIdentity`), so nothing a handler does to `event.context.mcp.auth` reaches
 * another request, a later decision of its own, or the object the validator returned.
 */
import type { AuthIdentity } from "../types/auth.ts";

/** The checked, frozen copy of an identity (without any token): what decisions read. */
export type Grant = Readonly<Omit<AuthIdentity, "scopes" | "token">> & { readonly scopes: readonly string[] };

/**
 * The grant of what `validate` returned (neither undefined nor null), or why it is not an identity:
 * a non-object (array, function, primitive), a `subject` or `clientId` that is not a string, scopes
 * that are not an array of strings, an `expiresAt` that is not a finite number, an `extra` that is
 * not an object, or anything `structuredClone` cannot copy. Each fails closed (503).
 */
export function grantOf(found: unknown): Grant | string {
  if (typeof found !== "object" || found === null || Array.isArray(found)) return "is not an object";
  try {
    const { token: _token, ...fields } = found as Partial<AuthIdentity>;
    const problem = shapeProblem(fields);
    if (problem !== undefined) return problem;
    // A deep copy: nothing of the validator's object (nested `extra` included) is shared with anyone.
    const copy = structuredClone(fields) as Omit<AuthIdentity, "token">;
    copy.scopes = Object.freeze([...(fields.scopes ?? [])]) as string[];
    return Object.freeze(copy);
  } catch (error) {
    // A getter that throws, or a value structuredClone refuses (a function, a class with private state).
    return `cannot be copied: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function shapeProblem(fields: Partial<AuthIdentity>): string | undefined {
  const { subject, clientId, scopes, expiresAt, extra } = fields;
  if (subject !== undefined && typeof subject !== "string") return "has a subject that is not a string";
  if (clientId !== undefined && typeof clientId !== "string") return "has a clientId that is not a string";
  if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string"))) {
    return "has scopes that are not an array of strings";
  }
  // NaN would compare false with every time, and admit the token forever.
  if (expiresAt !== undefined && (typeof expiresAt !== "number" || !Number.isFinite(expiresAt))) {
    return "has an expiresAt that is not a finite number";
  }
  if (extra !== undefined && (typeof extra !== "object" || extra === null || Array.isArray(extra))) {
    return "has an extra that is not an object";
  }
  return undefined;
}
