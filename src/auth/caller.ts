/** Who an admitted request comes from: the checked grant its decisions read, and copies for its handlers. */
import type { AuthIdentity } from "../types/auth.ts";
import type { Grant } from "./grant.ts";

export class Caller {
  /** The checked grant (frozen, shared by the requests whose token mapped to the same object; never handed to a handler). */
  readonly identity: Grant;
  /** The subject, else the SHA-256 hex of the token. */
  readonly principal: string;
  /** The raw token, kept only with `exposeToken`. */
  readonly token: string | undefined;

  // Plain fields, not parameter properties: Node's type stripping (the fixture and child servers run
  // the sources) refuses the latter.
  constructor(identity: Grant, principal: string, token: string | undefined) {
    this.identity = identity;
    this.principal = principal;
    this.token = token;
  }

  /** When the token expires, in milliseconds since the epoch; undefined when it names no expiry. */
  get expiresAtMs(): number | undefined {
    const seconds = this.identity.expiresAt;
    return seconds === undefined ? undefined : seconds * 1000;
  }

  /**
   * What this request's handlers see as `event.context.mcp.auth`: a deep copy of its own, made when
   * first read (the context keeps it), so that a handler writing into it changes nothing of another
   * request nor any decision. Requests whose handlers never read it pay nothing, which keeps the
   * benchmark's `auth_vs_no_auth` where it was.
   */
  copyIdentity(): AuthIdentity {
    const copy = structuredClone(this.identity) as AuthIdentity;
    if (this.token !== undefined) copy.token = this.token;
    return copy;
  }
}
