/**
 * The auth gate: every request of both eras shows a bearer token that `auth.validate` accepts,
 * before its era is classified and before any session is looked up, so an unauthenticated client
 * learns nothing. Built only when the `auth` option is set; without it nothing here runs.
 */
import type { H3Event } from "h3";
import type { Inbound } from "../engine/inbound.ts";
import type { Reply } from "../engine/reply.ts";
import type { AuthIdentity, AuthOptions } from "../types/auth.ts";
import { bearerToken } from "./bearer.ts";
import { insufficientScopeReply, unauthorizedReply, validatorFailedReply, type ChallengeParts } from "./challenge.ts";
import { tokenDigest } from "./principal.ts";

/** Who an admitted request comes from. */
export interface Caller {
  /** What handlers see as `event.context.mcp.auth`. */
  readonly identity: AuthIdentity;
  /** The subject, else the SHA-256 hex of the token. */
  readonly principal: string;
}

/** The validator took longer than `validateTimeoutMs`. */
class ValidateTimeout extends Error {}

export class AuthGate {
  readonly parts: ChallengeParts;
  /** Whether `notifySession` may reach sessions of other principals. */
  readonly crossPrincipalNotify: boolean;
  #options: AuthOptions;
  #timeoutMs: number;
  #onFailure: (error: unknown) => void;

  /** `onFailure` counts a validator that threw (a `callback_failure` incident). */
  constructor(options: AuthOptions, onFailure: (error: unknown) => void) {
    if (typeof options?.validate !== "function") throw new TypeError("mcp-h3: auth.validate must be a function");
    const timeoutMs = options.validateTimeoutMs ?? 5000;
    if (!(timeoutMs > 0)) throw new RangeError("mcp-h3: auth.validateTimeoutMs must be a positive number");
    this.#options = options;
    this.#timeoutMs = timeoutMs;
    this.#onFailure = onFailure;
    this.crossPrincipalNotify = options.crossPrincipalNotify === true;
    this.parts = {
      realm: options.realm,
      resourceMetadataUrl: options.resourceMetadataUrl,
      scopes: Object.freeze([...(options.scopes ?? [])]),
    };
  }

  /** The caller of an admitted request, or the 401, 403 or 503 that answers it. */
  async admit(inbound: Inbound, event: H3Event): Promise<Caller | Reply> {
    const token = bearerToken(inbound.header("authorization"));
    if (token === undefined) return unauthorizedReply(this.parts, "missing");
    let found: unknown;
    try {
      found = await this.#validate(token, event);
    } catch (error) {
      this.#onFailure(error);
      return validatorFailedReply(error instanceof ValidateTimeout);
    }
    if (found === undefined || found === null) return unauthorizedReply(this.parts, "invalid");
    const identity = this.#identityOf(found, token);
    if (identity === undefined) {
      this.#onFailure(new TypeError("mcp-h3: auth.validate returned something that is not an AuthIdentity"));
      return validatorFailedReply(false);
    }
    if (identity.expiresAt !== undefined && identity.expiresAt * 1000 <= Date.now()) {
      return unauthorizedReply(this.parts, "expired");
    }
    const missing = this.missingScopes(identity, this.parts.scopes);
    if (missing.length > 0) return insufficientScopeReply(this.parts, this.parts.scopes);
    const principal =
      typeof identity.subject === "string" && identity.subject !== "" ? identity.subject : await tokenDigest(token);
    return { identity, principal };
  }

  /** The scopes of `needed` that the identity was not granted. */
  missingScopes(identity: AuthIdentity, needed: readonly string[]): string[] {
    const missing: string[] = [];
    for (const scope of needed) if (!identity.scopes.includes(scope)) missing.push(scope);
    return missing;
  }

  /** 403 naming every scope needed: the handler's and the definition's. */
  insufficientScope(definitionScopes: readonly string[]): Reply {
    const needed = [...new Set([...this.parts.scopes, ...definitionScopes])];
    return insufficientScopeReply(this.parts, needed);
  }

  /** Runs `validate`, giving up after `validateTimeoutMs` (the timer is released either way). */
  #validate(token: string, event: H3Event): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ValidateTimeout(`mcp-h3: auth.validate took longer than ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
    });
    // A synchronous throw becomes a rejection here, answered like an asynchronous one.
    const check = Promise.resolve().then(() => this.#options.validate(token, event));
    return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
  }

  /** A copy of what `validate` returned, as handlers see it; undefined when it is not an identity. */
  #identityOf(found: unknown, token: string): AuthIdentity | undefined {
    if (typeof found !== "object" || found === null) return undefined;
    const given = found as Partial<AuthIdentity>;
    const scopes = given.scopes ?? [];
    if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string")) return undefined;
    if (given.expiresAt !== undefined && typeof given.expiresAt !== "number") return undefined;
    const identity: AuthIdentity = { ...given, scopes: [...scopes] };
    // The raw token reaches handlers only when asked for; whatever `validate` put there otherwise goes.
    if (this.#options.exposeToken === true) identity.token = token;
    else delete identity.token;
    return identity;
  }
}
