/**
 * The shell commands a README tells a reader to type, taken from its `sh` blocks, for test/newcomer-path.test.ts.
 *
 * Which blocks: those under a heading (`sectionBlocks`), so the README needs no marker a reader would see. Which
 * lines start a server: those whose comment says where it answers, "MCP on http://host:port/mcp" (the way the
 * README and the examples' READMEs already say it); every other line runs to completion.
 */
import { markdownBlocks, type MarkdownBlock } from "./readme-blocks.ts";

/**
 * The 0-based lines of `markdown` that are headings: `#` lines outside fenced blocks (a shell comment such as
 * "# Legacy era" inside a block is no heading).
 */
function headingLines(lines: readonly string[]): Map<number, { level: number; text: string }> {
  const headings = new Map<number, { level: number; text: string }>();
  let fence: string | undefined;
  lines.forEach((line, i) => {
    if (fence !== undefined) {
      if (line.trim() === fence) fence = undefined;
      return;
    }
    const opening = /^(`{3,}|~{3,})/.exec(line);
    if (opening) {
      fence = opening[1]!;
      return;
    }
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) headings.set(i, { level: heading[1]!.length, text: heading[2]! });
  });
  return headings;
}

/** The fenced blocks between the heading `## <heading>` (any level) and the next heading of the same or a higher level. */
export function sectionBlocks(markdown: string, heading: string): MarkdownBlock[] {
  const lines = markdown.split("\n");
  const headings = [...headingLines(lines)];
  const at = headings.findIndex(([, h]) => h.text === heading);
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const [start, { level }] = headings[at]!;
  const end = headings.slice(at + 1).find(([, h]) => h.level <= level)?.[0] ?? lines.length;
  // Blocks keep their line in the whole file.
  return markdownBlocks(lines.slice(start, end).join("\n")).map((block) => ({ ...block, line: block.line + start }));
}

/** One command of a block: what bash runs, the comment a reader sees, and the server URL the comment names. */
export interface ShellCommand {
  readonly command: string;
  readonly comment: string;
  /** "http://localhost:3000/mcp" when the comment says "MCP on http://…": the command starts a server. */
  readonly serves: string | undefined;
}

/** The position of a comment's `#` in a shell line (outside quotes, after whitespace), or -1. */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]!))) {
      return i;
    }
  }
  return -1;
}

/** The commands of an `sh` block: continuation lines joined, comments split off, blank lines dropped. */
export function shellCommands(code: string): ShellCommand[] {
  const joined: string[] = [];
  let pending = "";
  for (const raw of code.split("\n")) {
    const hash = commentStart(raw);
    const text = hash < 0 ? raw : raw.slice(0, hash);
    const comment = hash < 0 ? "" : raw.slice(hash + 1).trim();
    if (/\\\s*$/.test(text)) {
      pending += text.replace(/\\\s*$/, " ");
      continue;
    }
    joined.push(`${pending}${text}`.trim() + (comment ? `\0${comment}` : ""));
    pending = "";
  }
  return joined
    .filter((entry) => entry.split("\0")[0] !== "")
    .map((entry) => {
      const [command, comment = ""] = entry.split("\0");
      const serves = /MCP on (http:\/\/[^\s)]+)/.exec(comment)?.[1];
      return { command: command!, comment, serves };
    });
}
