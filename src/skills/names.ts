/**
 * The naming rules of skills (Agent Skills, and SEP-2640's resource mapping), checked when a skill
 * is defined: a name, the segments of its path, the paths of its files. Author data, but checked
 * by linear scans all the same (no regular expression that could backtrack).
 */

const NAME_MAX = 64;

/** Why `name` breaks the Agent Skills naming rules, or undefined when it keeps them. */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > NAME_MAX) return `it must have 1 to ${NAME_MAX} characters`;
  for (let index = 0; index < name.length; index++) {
    const char = name[index]!;
    const allowed = (char >= "a" && char <= "z") || (char >= "0" && char <= "9") || char === "-";
    if (!allowed) return "it may hold only lowercase letters, digits and hyphens";
    if (char === "-" && (index === 0 || index === name.length - 1 || name[index - 1] === "-")) {
      return "a hyphen may not start or end it, nor follow another";
    }
  }
  return undefined;
}

/** RFC 3986 `reg-name`: unreserved, sub-delims and percent-encoded octets. */
function isRegName(segment: string): boolean {
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index]!;
    if (char === "%") {
      if (!isHex(segment[index + 1]) || !isHex(segment[index + 2])) return false;
      index += 2;
    } else if (!isAlphaNumeric(char) && !"-._~!$&'()*+,;=".includes(char)) return false;
  }
  return true;
}

/** Whether `segment` is one path segment that needs no escaping and cannot climb (`.`, `..`). */
function isPlainSegment(segment: string): boolean {
  if (segment === "" || segment === "." || segment === "..") return false;
  for (const char of segment) if (!isAlphaNumeric(char) && !"-._~!$&'()*+,;=@".includes(char)) return false;
  return true;
}

function isAlphaNumeric(char: string): boolean {
  return (char >= "a" && char <= "z") || (char >= "A" && char <= "Z") || (char >= "0" && char <= "9");
}

function isHex(char: string | undefined): boolean {
  return (
    char !== undefined && ((char >= "0" && char <= "9") || (char >= "a" && char <= "f") || (char >= "A" && char <= "F"))
  );
}

/**
 * The segments of a skill's path, checked: the first a `reg-name` (it is the URI's authority), the
 * others plain segments, the last the skill's `name`. Throws naming the skill otherwise.
 *
 * @example
 * skillPathSegments("acme/billing/refunds", "refunds"); // ["acme", "billing", "refunds"]
 */
export function skillPathSegments(path: string, name: string): string[] {
  const segments = path.split("/");
  const label = `mcp-h3: skill "${name}": path ${JSON.stringify(path)}`;
  if (segments.at(-1) !== name) throw new Error(`${label} must end in the skill's name`);
  if (!isRegName(segments[0]!) || segments[0] === "")
    throw new Error(`${label}: its first segment must be a URI reg-name`);
  for (const segment of segments) {
    if (!isPlainSegment(segment)) throw new Error(`${label}: ${JSON.stringify(segment)} is not a plain path segment`);
  }
  return segments;
}

/** A supporting file's path, checked: plain segments, not `SKILL.md` itself. Throws otherwise. */
export function checkFilePath(path: string, name: string): void {
  const label = `mcp-h3: skill "${name}": file ${JSON.stringify(path)}`;
  if (path === "SKILL.md") throw new Error(`${label} is the skill's own SKILL.md, given as markdown`);
  for (const segment of path.split("/")) {
    if (!isPlainSegment(segment)) throw new Error(`${label}: ${JSON.stringify(segment)} is not a plain path segment`);
  }
}
