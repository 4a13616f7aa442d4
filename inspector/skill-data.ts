/**
 * What the Skills panel asks a server (SEP-2640, `io.modelcontextprotocol/skills`): every page of
 * `skills/list`, a dynamic skill's files by walking `resources/directory/read`, and a file read with
 * `resources/read` checked against its manifest entry (size, and SHA-256 by WebCrypto). Everything the
 * server answers is data to check: entries of the wrong shape are dropped and counted, walks are bounded.
 */
import type { Client } from "@modelcontextprotocol/client";

/** One file of a skill: from the manifest (digest and size), or from a directory read (size at most). */
export interface SkillFileEntry {
  readonly uri: string;
  readonly digest?: string;
  readonly size?: number;
}

export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: Record<string, unknown>;
  /** The manifest, or `"dynamic"`: no digests published, the files found by a directory walk. */
  readonly files: readonly SkillFileEntry[] | "dynamic";
}

/** Past these the page stops asking: a server cannot keep it paging or walking forever. */
const MAX_PAGES = 100;
const MAX_DIRECTORIES = 256;
/** SEP-2640's limit of files per skill that every host must accept. */
const MAX_FILES = 512;

/** A result schema that keeps the result as it is (the 2.x client takes Standard Schema objects). */
const asIs = {
  "~standard": { version: 1, vendor: "mcp-h3-inspector", validate: (value: unknown) => ({ value }) },
} as const;

type Json = Record<string, unknown>;

function request(client: Client, method: string, params: Json): Promise<Json> {
  return client.request({ method, params } as never, asIs as never) as Promise<Json>;
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isSize = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The next cursor to ask for, or undefined at the end (also when the server repeats a cursor). */
function nextCursor(result: Json, seen: Set<string>): string | undefined {
  const cursor = result.nextCursor;
  if (typeof cursor !== "string" || seen.has(cursor)) return undefined;
  seen.add(cursor);
  return cursor;
}

function manifestFile(value: unknown): SkillFileEntry | undefined {
  if (!isObject(value) || typeof value.uri !== "string") return undefined;
  if (typeof value.digest !== "string" || !isSize(value.size)) return undefined;
  return { uri: value.uri, digest: value.digest, size: value.size };
}

function skillEntry(value: unknown): SkillEntry | undefined {
  if (!isObject(value) || typeof value.uri !== "string" || !isObject(value.frontmatter)) return undefined;
  if (value.resources === "dynamic") return { uri: value.uri, frontmatter: value.frontmatter, files: "dynamic" };
  if (!Array.isArray(value.resources)) return undefined;
  const files = value.resources.map(manifestFile);
  if (files.some((file) => file === undefined)) return undefined;
  return { uri: value.uri, frontmatter: value.frontmatter, files: files as SkillFileEntry[] };
}

/** Every entry of `skills/list`, all pages; `dropped` counts the entries not of the extension's shape. */
export async function listAllSkills(client: Client): Promise<{ skills: SkillEntry[]; dropped: number }> {
  const skills: SkillEntry[] = [];
  let dropped = 0;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await request(client, "skills/list", cursor === undefined ? {} : { cursor });
    for (const value of Array.isArray(result.skills) ? result.skills : []) {
      const entry = skillEntry(value);
      if (entry) skills.push(entry);
      else dropped++;
    }
    cursor = nextCursor(result, seen);
    if (cursor === undefined) break;
  }
  return { skills, dropped };
}

/** A skill's root directory: its `SKILL.md` URI without the file name. */
export function skillDirectory(uri: string): string {
  return uri.endsWith("/SKILL.md") ? uri.slice(0, -"/SKILL.md".length) : uri;
}

/**
 * The files below a dynamic skill's directory, by `resources/directory/read` (every page, subdirectories
 * followed). Only URIs below the skill's own directory are followed or kept; at most 512 files.
 */
export async function walkSkillFiles(client: Client, skillUri: string): Promise<SkillFileEntry[]> {
  const root = skillDirectory(skillUri);
  const files: SkillFileEntry[] = [];
  const queue = [root];
  const visited = new Set(queue);
  for (let reads = 0; queue.length > 0 && reads < MAX_DIRECTORIES && files.length < MAX_FILES; reads++) {
    const uri = queue.shift()!;
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await request(
        client,
        "resources/directory/read",
        cursor === undefined ? { uri } : { uri, cursor },
      );
      for (const child of Array.isArray(result.resources) ? result.resources : []) {
        if (!isObject(child) || typeof child.uri !== "string" || !child.uri.startsWith(`${root}/`)) continue;
        if (child.mimeType === "inode/directory") {
          if (!visited.has(child.uri)) {
            visited.add(child.uri);
            queue.push(child.uri);
          }
        } else if (files.length < MAX_FILES && !files.some((file) => file.uri === child.uri)) {
          files.push(isSize(child.size) ? { uri: child.uri, size: child.size } : { uri: child.uri });
        }
      }
      cursor = nextCursor(result, seen);
      if (cursor === undefined) break;
    }
  }
  // SKILL.md first, as in a manifest.
  return files.sort((a, b) => Number(b.uri === skillUri) - Number(a.uri === skillUri));
}

/** A file as read, and what checking it against its manifest entry found. */
export interface FileRead {
  readonly text?: string;
  readonly mimeType?: string;
  readonly size: number;
  readonly verdict: "verified" | "mismatch" | "unchecked";
  /** Says what was compared, and how it came out. */
  readonly note: string;
}

function base64Bytes(blob: string): Uint8Array {
  const binary = atob(blob);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** Reads `file` with `resources/read` and checks its bytes (UTF-8 of a text, or the decoded blob) against it. */
export async function readSkillFile(client: Client, file: SkillFileEntry): Promise<FileRead> {
  const { contents } = await client.readResource({ uri: file.uri });
  const content = contents.find((c) => c.uri === file.uri) ?? contents[0];
  if (!content) throw new Error(`resources/read of ${file.uri} returned no contents`);
  const isText = "text" in content && typeof content.text === "string";
  const blob = "blob" in content ? String(content.blob) : "";
  const bytes = isText ? new TextEncoder().encode(content.text) : base64Bytes(blob);
  const shown = isText ? { text: content.text } : {};
  const read = { ...shown, mimeType: content.mimeType, size: bytes.byteLength };
  if (file.digest === undefined) {
    return { ...read, verdict: "unchecked", note: `dynamic: no digest to check (${bytes.byteLength} bytes read)` };
  }
  if (!globalThis.crypto?.subtle) {
    return { ...read, verdict: "unchecked", note: "not checked: WebCrypto needs a secure context (https, localhost)" };
  }
  const digest = await sha256(bytes);
  const sizeNote = file.size === bytes.byteLength ? "" : `; size mismatch: manifest ${file.size} bytes`;
  if (digest === file.digest && sizeNote === "") {
    return { ...read, verdict: "verified", note: `verified: ${bytes.byteLength} bytes, ${digest}` };
  }
  const digestNote = digest === file.digest ? "" : `digest mismatch: manifest ${file.digest}, read ${digest}`;
  return {
    ...read,
    verdict: "mismatch",
    note: `${digestNote || "digest matches"}${sizeNote}, read ${bytes.byteLength} bytes`,
  };
}
