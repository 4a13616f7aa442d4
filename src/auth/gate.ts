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
  /** Checked copies of the identities `validate` returned, by the object it returned. */
  #copies = new WeakMap<object, AuthIdentity>();

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

  /**
   * The caller of an admitted request, or the 401, 403 or 503 that answers it. Synchronous when
   * `validate` is (a cached identity with a subject): no timer and no promise on that path, which
   * the benchmark's `auth_vs_no_auth` measures.
   */
  admit(inbound: Inbound, event: H3Event): Caller | Reply | Promise<Caller | Reply> {
    const token = bearerToken(inbound.header("authorization"));
    if (token === undefined) return unauthorizedReply(this.parts, "missing");
    let found: unknown;
    try {
      found = this.#options.validate(token, event);
    } catch (error) {
      this.#onFailure(error);
      return validatorFailedReply(false);
    }
    if (isThenable(found)) {
      return this.#withTimeout(found).then(
        (value) => this.#decide(value, token),
        (error: unknown) => {
          this.#onFailure(error);
          return validatorFailedReply(error instanceof ValidateTimeout);
        },
      );
    }
    return this.#decide(found, token);
  }

  /** What `validate` said, turned into the caller or the answer. */
  #decide(found: unknown, token: string): Caller | Reply | Promise<Caller | Reply> {
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
    if (typeof identity.subject === "string" && identity.subject !== "")
      return { identity, principal: identity.subject };
    return tokenDigest(token).then((principal) => ({ identity, principal }));
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

  /** Waits for an asynchronous `validate`, giving up after `validateTimeoutMs` (the timer is released either way). */
  #withTimeout(pending: PromiseLike<unknown>): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ValidateTimeout(`mcp-h3: auth.validate took longer than ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
    });
    return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * A copy of what `validate` returned, as handlers see it; undefined when it is not an identity.
   * Without `exposeToken` the copy depends on the returned object alone, so a validator that returns
   * cached identities gets each one checked and copied once.
   */
  #identityOf(found: unknown, token: string): AuthIdentity | undefined {
    if (typeof found !== "object" || found === null) return undefined;
    if (this.#options.exposeToken === true) {
      const identity = copyIdentity(found as Partial<AuthIdentity>);
      if (identity) identity.token = token;
      return identity;
    }
    let identity = this.#copies.get(found);
    if (identity === undefined) {
      identity = copyIdentity(found as Partial<AuthIdentity>);
      if (identity) this.#copies.set(found, identity);
    }
    return identity;
  }
}

/** A checked copy of an identity, without any token `validate` put there; undefined when it is not one. */
function copyIdentity(given: Partial<AuthIdentity>): AuthIdentity | undefined {
  const scopes = given.scopes ?? [];
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string")) return undefined;
  if (given.expiresAt !== undefined && typeof given.expiresAt !== "number") return undefined;
  const { token: _token, ...rest } = given;
  return { ...rest, scopes: [...scopes] };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}
