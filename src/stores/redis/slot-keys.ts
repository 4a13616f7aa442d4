/**
 * Key names that keep what one script touches in one Redis Cluster slot. A cluster hashes only the
 * part of a key between its first `{` and the next `}` (its hash tag), so every key of one concept
 * starts with the same tag: `{session:<id>}` for a session's record, subscriptions and event logs,
 * `{principal:<name>}` for a principal's sessions, `{task:<id>}` for a task, `{owner:<name>}` for an
 * owner's task indexes, `{sessions}` and `{tasks}` for the indexes over all of them. On one Redis
 * the tags change nothing.
 */

/**
 * The hash tag of one thing of a kind, `{kind:name}`. A name holding `}` (a client's session id, an
 * auth subject) ends the tag early, but the same way in every key of that thing, since they all
 * begin with it: its keys still share a slot (test/redis-cluster-keys.test.ts runs such names on a
 * cluster), only several such names may share one.
 */
export function slotTag(kind: string, name: string): string {
  return `{${kind}:${name}}`;
}
