/** Who an admitted request comes from: the checked grant its decisions read, and copies for its handlers. */
import type { AuthIdentity } from "../types/auth.ts";
import type { Grant } from "./grant.ts";

export class Caller {
  /**
   * @param identity the checked grant (frozen, shared by the requests whose token mapped to the same
   *   object; never handed to a handler)
   * @param principal the subject, else the SHA-256 hex of the token
   * @param token the raw token, kept only with `exposeToken`
   */
  constructor(
    readonly identity: Grant,
    readonly principal: string,
    readonly token: string | undefined,
  ) {}

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
