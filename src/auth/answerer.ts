/**
 * Who may answer a server→client request (an elicitation, a sampling, a roots list) that a legacy
 * session's request sent its client: the caller that request came from, or a caller holding at least
 * its grant. The session check already ties every POST to the session's principal, but several
 * tokens may stand for one principal (one subject): a weaker one must not answer for a stronger one,
 * e.g. for a task it may not even see (its tool needs scopes the weaker token lacks).
 */

/** What the check reads of a caller: its principal and its scopes (also carried across instances). */
export interface Answerer {
  readonly principal: string;
  readonly scopes: readonly string[];
}

/** The {@link Answerer} of a caller (no principal: auth is off, and the session alone decides). */
export function answererOf(principal: string | undefined, scopes: readonly string[] | undefined): Answerer | undefined {
  return principal === undefined ? undefined : { principal, scopes: scopes ?? [] };
}

/**
 * Whether `responder` may answer a request asked for `asker`: always with auth off (no asker); else
 * the same principal holding every scope the asker held. Linear in the scopes (one Set).
 */
export function mayAnswer(asker: Answerer | undefined, responder: Answerer | undefined): boolean {
  if (asker === undefined) return true;
  if (responder === undefined || responder.principal !== asker.principal) return false;
  if (asker.scopes.length === 0) return true;
  const held = new Set(responder.scopes);
  return asker.scopes.every((scope) => held.has(scope));
}
