/**
 * Code blocks of a markdown file, for type-checking what the README shows.
 *
 * A block is a fenced block (```lang … ```) at the start of a line. Its `line` is the 1-based line of the
 * opening fence in the markdown, so a failure names the place a reader would look at.
 */
export interface MarkdownBlock {
  /** The info string's first word, lower-cased: "ts", "sh", "" for a bare fence. */
  readonly lang: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly code: string;
}

/** Languages whose blocks are type-checked; every other fence (sh, json, text, none) is prose. */
export const CHECKED_LANGS = new Set(["ts", "typescript", "js", "javascript", "mjs"]);

/**
 * The one way for a ts block to stay out of the check: this comment as its first line. Meant for a block that
 * shows something that cannot compile on purpose; use it nowhere else.
 */
export const OPT_OUT_MARKER = "// readme-check: skip";

/** Every fenced block of `markdown`, in order. An unclosed fence runs to the end of the text. */
export function markdownBlocks(markdown: string): MarkdownBlock[] {
  const lines = markdown.split("\n");
  const blocks: MarkdownBlock[] = [];
  let open: { fence: string; lang: string; line: number; body: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (open === undefined) {
      const start = /^(`{3,}|~{3,})\s*([^\s`]*)/.exec(text);
      if (start) open = { fence: start[1]!, lang: start[2]!.toLowerCase(), line: i + 1, body: [] };
    } else if (text.trimEnd() === open.fence || (text.startsWith(open.fence) && text.trim() === open.fence)) {
      blocks.push({ lang: open.lang, line: open.line, code: open.body.join("\n") });
      open = undefined;
    } else {
      open.body.push(text);
    }
  }
  if (open) blocks.push({ lang: open.lang, line: open.line, code: open.body.join("\n") });
  return blocks;
}
