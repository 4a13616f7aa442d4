/**
 * The bearer token of a request (RFC 6750 §2.1): only from `Authorization: Bearer <token>`, never
 * from the query string or the body. Read in one pass with no regular expression, so a hostile
 * header costs time linear in its length.
 */

/** True for the characters of RFC 7235's `token68` before its trailing `=` padding. */
function isToken68Char(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    code === 0x2d || // -
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x7e || // ~
    code === 0x2b || // +
    code === 0x2f // /
  );
}

const SCHEME = "bearer";

/**
 * The token of an `Authorization` header value, or undefined when there is none or the value is
 * malformed (another scheme, no token, a second token, characters outside `token68`): a malformed
 * header counts as a missing one.
 *
 * @example
 * bearerToken("Bearer abc.def"); // "abc.def"
 * bearerToken("bearer   abc"); // "abc"
 * bearerToken("Basic abc"); // undefined
 */
export function bearerToken(header: string | null): string | undefined {
  if (header === null || header.length <= SCHEME.length + 1) return undefined;
  for (let i = 0; i < SCHEME.length; i++) {
    // ASCII letters only: `| 0x20` lower-cases them.
    if ((header.charCodeAt(i) | 0x20) !== SCHEME.charCodeAt(i)) return undefined;
  }
  let start = SCHEME.length;
  if (header.charCodeAt(start) !== 0x20) return undefined;
  while (header.charCodeAt(start) === 0x20) start++;
  let end = header.length;
  // Hosts may keep trailing whitespace of a header value; it is not part of the token.
  while (end > start && (header.charCodeAt(end - 1) === 0x20 || header.charCodeAt(end - 1) === 0x09)) end--;
  if (end === start) return undefined;
  let i = start;
  while (i < end && isToken68Char(header.charCodeAt(i))) i++;
  if (i === start) return undefined;
  while (i < end && header.charCodeAt(i) === 0x3d) i++; // `=` padding
  return i === end ? header.slice(start, end) : undefined;
}
