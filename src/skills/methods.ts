/**
 * The methods of the skills extension (SEP-2640): `skills/list`, `skills/get` and
 * `resources/directory/read`. What a request sees is what it may read: a skill whose `SKILL.md`
 * its token, and its `enabled`, let it read; a directory child it could read (a directory when
 * something below it is).
 */
import { ErrorCode, McpError, echoValue, type JsonObject, type McpMethodCall } from "../index.ts";
import type { CacheHints } from "../types/cache-hints.ts";
import { pageOf } from "./pages.ts";
import type { SkillDirectory, SkillSet } from "./skill-set.ts";

/** What the methods read, fixed when the extension is plugged in. */
export interface SkillMethodsConfig {
  readonly set: SkillSet;
  readonly pageSize: number;
  /** Modern `ttlMs` / `cacheScope` of `skills/list` and `skills/get` results. */
  readonly cacheHints: Required<CacheHints>;
}

/** The `uri` param (client data): a string, else `-32602`. */
function uriParam(call: McpMethodCall): string {
  const uri = call.params.uri;
  if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: uri must be a string");
  return uri;
}

/** Adds the cache attributes a modern `CacheableResult` requires; a legacy result has none. */
function cacheable(call: McpMethodCall, result: JsonObject, config: SkillMethodsConfig): JsonObject {
  return call.context.era === "modern" ? { ...result, ...config.cacheHints } : result;
}

/** `skills/list`: the listed skills the request may read, a page at a time, each entry whole. */
export async function listSkills(call: McpMethodCall, config: SkillMethodsConfig): Promise<JsonObject> {
  const visible = config.set.skills.filter((skill) => skill.listed && call.access.mayReadResource(skill.uri));
  const { page, nextCursor } = pageOf(visible, call.params.cursor, config.pageSize);
  const skills = await Promise.all(page.map((skill) => config.set.entryOf(skill)));
  return cacheable(call, nextCursor === undefined ? { skills } : { skills, nextCursor }, config);
}

/** `skills/get`: the entry of any skill served at `uri` the request may read, listed or not; `-32602` otherwise. */
export async function getSkill(call: McpMethodCall, config: SkillMethodsConfig): Promise<JsonObject> {
  const uri = uriParam(call);
  const skill = config.set.skillAt(uri);
  if (!skill || !call.access.mayReadResource(uri)) {
    throw new McpError(ErrorCode.InvalidParams, `No skill is served at ${echoValue(uri)}`);
  }
  return cacheable(call, { skill: await config.set.entryOf(skill) }, config);
}

/** Whether the request may read something below `directory` (else, to it, the directory is not there). */
function mayReadBelow(call: McpMethodCall, directory: SkillDirectory): boolean {
  return directory.filesBelow.some((file) => call.access.mayReadResource(file.uri));
}

/** `resources/directory/read`: the direct children of a directory of the skill namespace, a page at a time. */
export function readDirectory(call: McpMethodCall, config: SkillMethodsConfig): JsonObject {
  const uri = uriParam(call);
  const directory = config.set.directoryAt(uri);
  if (!directory || !mayReadBelow(call, directory)) {
    throw new McpError(ErrorCode.InvalidParams, `${echoValue(uri)} is not a directory resource`);
  }
  const children: JsonObject[] = [];
  for (const [name, child] of directory.children) {
    if (child.kind === "file") {
      if (call.access.mayReadResource(child.file.uri)) {
        children.push({ uri: child.file.uri, name, mimeType: child.file.mimeType, ...sizeOf(child.file.bytes) });
      }
    } else if (mayReadBelow(call, config.set.directoryAt(child.uri)!)) {
      children.push({ uri: child.uri, name, mimeType: "inode/directory" });
    }
  }
  const { page, nextCursor } = pageOf(children, call.params.cursor, config.pageSize);
  return nextCursor === undefined ? { resources: page } : { resources: page, nextCursor };
}

function sizeOf(bytes: Uint8Array | undefined): { size?: number } {
  return bytes === undefined ? {} : { size: bytes.byteLength };
}
