/**
 * The test client's skills helpers (SEP-2640): the methods of the skills extension with their
 * pages followed, and a file read checked as a host checks it (its size and SHA-256 digest against
 * the skill's manifest), so a test sees what a skills host would accept.
 */
import type { McpTestSkill, McpTestSkillFile } from "../types/testing.ts";

/** Most pages followed for one list: a server that keeps giving cursors fails the call, never hangs it. */
const MAX_PAGES = 1_000;

/** What the helpers need of the client: one request with any result, and a resource read. */
export interface SkillsHost {
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  readResource(uri: string): Promise<{ contents: { uri: string; mimeType?: string; text?: string; blob?: string }[] }>;
}

/** Every item of a paged list: `key` of each page, cursors followed until none. */
export async function allPages(
  host: SkillsHost,
  method: string,
  params: Record<string, unknown>,
  key: string,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await host.request(method, cursor === undefined ? params : { ...params, cursor });
    items.push(...((result[key] ?? []) as Record<string, unknown>[]));
    cursor = result.nextCursor;
    if (typeof cursor !== "string" || cursor === "") return items;
  }
  throw new Error(`${method}: still a nextCursor after ${MAX_PAGES} pages`);
}

async function digestOf(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Reads `uri` of `skill` and checks it against the skill's manifest (a listed file: its size and
 * digest must match; a dynamic skill's files are read unchecked); throws naming what differs.
 */
export async function readSkillFile(host: SkillsHost, skill: McpTestSkill, uri: string): Promise<McpTestSkillFile> {
  const { contents } = await host.readResource(uri);
  const content = contents[0];
  if (!content) throw new Error(`readSkillFile: ${uri} has no content`);
  const bytes =
    content.text !== undefined
      ? new TextEncoder().encode(content.text)
      : Uint8Array.from(atob(content.blob ?? ""), (char) => char.charCodeAt(0));
  if (skill.resources !== "dynamic") {
    const listed = skill.resources.find((resource) => resource.uri === uri);
    if (!listed) throw new Error(`readSkillFile: ${uri} is not in the manifest of ${skill.uri}`);
    if (listed.size !== bytes.byteLength) {
      throw new Error(`readSkillFile: ${uri} has ${bytes.byteLength} bytes; the manifest says ${listed.size}`);
    }
    const digest = await digestOf(bytes);
    if (digest !== listed.digest)
      throw new Error(`readSkillFile: ${uri} digests to ${digest}; the manifest says ${listed.digest}`);
  }
  return { uri, mimeType: content.mimeType, bytes, text: content.text };
}
