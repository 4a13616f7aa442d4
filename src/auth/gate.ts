/**
 * The auth gate: every request of both eras shows a bearer token that `auth.validate` accepts,
 * before its era is classified and before any session is looked up, so an unauthenticated client
 * learns nothing. Built only when the `auth` option is set; without it nothing here runs.
 */
import { positiveOption } from "../protocol/positive-option.ts";
import type { H3Event } from "h3";
import type { Inbound } from "../http/inbound.ts";
import type { Reply } from "../http/reply.ts";
import type { AuthOptions } from "../types/auth.ts";
import { bearerToken } from "./bearer.ts";
import { Caller } from "./caller.ts";
import { insufficientScope, unauthorizedReply, validatorFailedReply, type ChallengeParts } from "./challenge.ts";
import { refuse, type Refusal } from "../http/refusal.ts";
import { grantOf, type Grant } from "./grant.ts";
import { tokenDigest } from "./principal.ts";

export { Caller };

/** The validator took longer than `validateTimeoutMs`. */
class ValidateTimeout extends Error {}

export class AuthGate {
  readonly parts: ChallengeParts;
  /** Whether `notifySession` may reach sessions of other principals. */
  readonly crossPrincipalNotify: boolean;
  #options: AuthOptions;
  #timeoutMs: number;
  #onFailure: (error: unknown) => void;
  /**
   * The grants of the objects `validate` returned, checked once per object: a validator in front of
   * a token cache returns the same object for every request of a token, and pays the check and the
   * copy once (the benchmark's `auth_vs_no_auth`). Sharing is safe because a grant is frozen and
   * never handed to a handler (see `grant.ts`).
   */
  #grants = new WeakMap<object, Grant>();

  /** `onFailure` counts a validator that threw (a `callback_failure` incident). */
  constructor(options: AuthOptions, onFailure: (error: unknown) => void) {
    if (typeof options?.validate !== "function") throw new TypeError("mcp-h3: auth.validate must be a function");
    const timeoutMs = positiveOption("mcp-h3: defineMcpHandler: auth.validateTimeoutMs", options.validateTimeoutMs, {
      fallback: 5000,
    });
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
    const grant = this.#grantOf(found);
    if (typeof grant === "string") {
      // Junk from the validator fails closed, as a validator that threw: 503, counted.
      this.#onFailure(new TypeError(`mcp-h3: what auth.validate returned ${grant}`));
      return validatorFailedReply(false);
    }
    if (grant.expiresAt !== undefined && grant.expiresAt * 1000 <= Date.now()) {
      return unauthorizedReply(this.parts, "expired");
    }
    const missing = this.missingScopes(grant, this.parts.scopes);
    if (missing.length > 0) return refuse(null, insufficientScope(this.parts, this.parts.scopes));
    const kept = this.#options.exposeToken === true ? token : undefined;
    if (grant.subject !== undefined && grant.subject !== "") return new Caller(grant, grant.subject, kept);
    return tokenDigest(token).then((principal) => new Caller(grant, principal, kept));
  }

  /** The scopes of `needed` that the identity was not granted. */
  missingScopes(identity: { readonly scopes: readonly string[] }, needed: readonly string[]): string[] {
    const missing: string[] = [];
    for (const scope of needed) if (!identity.scopes.includes(scope)) missing.push(scope);
    return missing;
  }

  /** The 403 naming every scope needed: the handler's and the definition's (answered with id null). */
  insufficientScope(definitionScopes: readonly string[]): Refusal {
    const needed = [...new Set([...this.parts.scopes, ...definitionScopes])];
    return insufficientScope(this.parts, needed);
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

  /** The grant of what `validate` returned, or why it is not an identity (junk is not kept). */
  #grantOf(found: unknown): Grant | string {
    if (typeof found !== "object" || found === null) return grantOf(found);
    let grant = this.#grants.get(found);
    if (grant === undefined) {
      const checked = grantOf(found);
      if (typeof checked === "string") return checked;
      this.#grants.set(found, (grant = checked));
    }
    return grant;
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}
