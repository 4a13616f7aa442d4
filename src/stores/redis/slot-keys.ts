/**
 * Key names that keep what one script touches in one Redis Cluster slot. A cluster hashes only the
 * part of a key between its first `{` and the next `}` (its hash tag), so every key of one concept
 * carries the same tag: `{session:<id>}` for a session's record, subscriptions and event logs,
 * `{principal:<name>}` for a principal's sessions, `{task:<id>}` for a task, `{owner:<name>}` for an
 * owner's task indexes, `{sessions}` and `{tasks}` for the indexes over all of them. On one Redis
 * the tags change nothing.
 */

/**
 * The hash tag of one thing of a kind, `{kind:name}`. `%`, `{` and `}` in the name are written as
 * `%25`, `%7B` and `%7D` (so a name from a client cannot close the tag early and put one thing's
 * keys on two slots, and two names never share a tag); a name without them is kept as it is.
 */
export function slotTag(kind: string, name: string): string {
  return `{${kind}:${/[%{}]/.test(name) ? name.replace(/[%{}]/g, escapeBrace) : name}}`;
}

function escapeBrace(character: string): string {
  return character === "%" ? "%25" : character === "{" ? "%7B" : "%7D";
}
