/**
 * Matching a URI against a level-1 URI template without a regular expression: `lit0 {v1} lit1 … {vn} litn`,
 * where every variable is one or more characters other than `/`, `?` and `#`. A RegExp of that shape
 * (`^a([^/?#]+)\.([^/?#]+)\.([^/?#]+)$`) backtracks cubically on a long URI that almost matches; this
 * matcher costs O(length of the URI × number of variables) whatever the URI.
 *
 * It gives the answer the RegExp gave: when a URI can be split several ways, each variable, from the
 * first, takes as much as still lets the rest match (what greedy quantifiers do).
 */

/** `/`, `?` and `#`: a variable never spans them. */
function isStop(code: number): boolean {
  return code === 47 || code === 63 || code === 35;
}

/**
 * The raw (still percent-encoded) values of the variables when `uri` is `literals[0]`, a value,
 * `literals[1]`, …, a value, `literals[n]`; else `undefined`. Every literal but the first and the last
 * is non-empty (the parser refuses two variables with nothing between them).
 *
 * How: positions are checked from the right. `starts` marks where variable k may start so that the
 * rest of the URI matches; from it, `ends[k]` marks where variable k may end (literal k found there,
 * with a valid start for variable k + 1 after it). Then, from the left, each variable ends at the last
 * allowed place its run of non-stop characters reaches.
 */
export function matchLiterals(literals: readonly string[], uri: string): string[] | undefined {
  const count = literals.length - 1;
  const head = literals[0]!;
  if (count === 0) return uri === head ? [] : undefined;
  const tail = literals[count]!;
  const start = head.length;
  const end = uri.length - tail.length;
  if (end <= start || !uri.startsWith(head) || !uri.endsWith(tail)) return undefined;
  const size = end - start + 1;
  // stopAt[i]: the first stop character at or after start + i, or `end` when there is none before it.
  const stopAt = new Int32Array(size);
  stopAt[size - 1] = end;
  for (let i = size - 2; i >= 0; i--) stopAt[i] = isStop(uri.charCodeAt(start + i)) ? start + i : stopAt[i + 1]!;
  if (count === 1) return stopAt[0] === end ? [uri.slice(start, end)] : undefined;

  // The last variable may start anywhere its run reaches `end` from.
  let starts = new Uint8Array(size);
  for (let i = 0; i < size - 1; i++) starts[i] = stopAt[i] === end ? 1 : 0;
  const ends: Uint8Array[] = [];
  for (let k = count - 1; k >= 1; k--) {
    const literal = literals[k]!;
    const endsHere = new Uint8Array(size);
    for (let at = uri.indexOf(literal, start + 1); at !== -1 && at < end; at = uri.indexOf(literal, at + 1)) {
      const next = at + literal.length - start;
      if (next < size && starts[next] === 1) endsHere[at - start] = 1;
    }
    ends[k] = endsHere;
    // Variable k may start at i when an allowed end lies in (i, stopAt[i]].
    const startsHere = new Uint8Array(size);
    let nearest = Number.MAX_SAFE_INTEGER;
    for (let i = size - 1; i >= 0; i--) {
      if (nearest <= stopAt[i]!) startsHere[i] = 1;
      if (endsHere[i] === 1) nearest = start + i;
    }
    starts = startsHere;
  }
  if (starts[0] !== 1) return undefined;

  const values: string[] = [];
  let from = start;
  for (let k = 1; k < count; k++) {
    const endsHere = ends[k]!;
    let at = stopAt[from - start]!;
    while (endsHere[at - start] !== 1) at--;
    values.push(uri.slice(from, at));
    from = at + literals[k]!.length;
  }
  values.push(uri.slice(from, end));
  return values;
}
