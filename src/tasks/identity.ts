/** Task ids (unguessable) and owners (who may see a task). */
import type { McpContext } from "../types/context.ts";

/** The owner of every task an anonymous caller (auth off) creates: with auth off, the id is the only secret. */
export const ANONYMOUS_OWNER = "anonymous";

/**
 * A new task id: 144 random bits, base64url (24 characters). Ids are the only thing between a task
 * and anyone holding its id when auth is off, so they are never derived from anything.
 */
export function newTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_");
}

/**
 * Who owns the tasks `context`'s caller creates: its principal (the token's subject, or the hash of
 * the token), prefixed so that no principal can be named like the anonymous owner.
 */
export function ownerOf(context: McpContext): string {
  return ownerOfPrincipal(context.principal);
}

/** {@link ownerOf} from the principal alone (a listen stream's). */
export function ownerOfPrincipal(principal: string | undefined): string {
  return principal === undefined ? ANONYMOUS_OWNER : `principal:${principal}`;
}

/** The longest task id a request may name; longer ones are refused before any store is asked. */
export const MAX_TASK_ID_LENGTH = 128;
