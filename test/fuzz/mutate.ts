/**
 * Mutations of a valid request: keys dropped, duplicated, retyped or swapped; values deep-nested,
 * huge, full of odd Unicode or extreme numbers; headers removed or changed; bodies truncated.
 */
import { chance, int, pick, type Random } from "./prng.ts";
import type { FuzzPool, FuzzRequest } from "./messages.ts";
import { mutateAuthorization } from "./auth.ts";

/** A request ready to send: headers and the body text. */
export interface Mutated {
  method: FuzzRequest["method"];
  headers: Record<string, string>;
  text: string | undefined;
  endless: boolean;
  /** The names of the mutations applied (for the failure report). */
  applied: string[];
}

type Json = unknown;
type Container = Record<string, Json> | Json[];

/** Every object or array in `value`, with a path to it (bounded, so a mutated body stays mutable). */
function containers(value: Json, found: Container[] = [], depth = 0): Container[] {
  if (depth > 12 || typeof value !== "object" || value === null) return found;
  found.push(value as Container);
  for (const child of Object.values(value)) containers(child, found, depth + 1);
  return found;
}

const ODD_STRINGS = [
  "",
  "\ud800",
  "\udfff\ud800",
  "\u0000",
  "\u202e\u0644\u0627",
  "😀".repeat(50),
  "=?base64?AAAA?=",
  "__proto__",
  "\r\nX-Injected: 1",
  "../../etc/passwd",
  "%00%ff%",
];
const ODD_NUMBERS = [0, -0, -1, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e308, 5e-324];

function randomValue(random: Random): Json {
  switch (int(random, 0, 7)) {
    case 0:
      return null;
    case 1:
      return chance(random, 0.5);
    case 2:
      return pick(random, ODD_NUMBERS);
    case 3:
      return pick(random, ODD_STRINGS);
    case 4:
      return [];
    case 5:
      return {};
    case 6:
      return "x".repeat(int(random, 1000, 8000));
    default:
      return [pick(random, ODD_STRINGS), pick(random, ODD_NUMBERS)];
  }
}

/** Deep nesting is written into the text at the end (a placeholder in the tree), so no walk of ours recurses. */
const NEST = "\u0000nest:";

function nestedText(text: string): string {
  return text.replace(/"\\u0000nest:(\d+)"/g, (_match, depth: string) => {
    const levels = Number(depth);
    return '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
  });
}

function keysOf(container: Container): string[] {
  return Object.keys(container);
}

/** Structural mutations of the parsed body, in place; returns the name of the one applied. */
function mutateTree(random: Random, root: Json): string {
  const targets = containers(root);
  if (targets.length === 0) return "none";
  const target = pick(random, targets);
  const keys = keysOf(target);
  const key = keys.length > 0 ? pick(random, keys) : "k";
  const record = target as Record<string, Json>;
  switch (int(random, 0, 7)) {
    case 0:
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete record[key];
      return "drop-key";
    case 1:
      record[key] = randomValue(random);
      return "retype";
    case 2: {
      const other = keys.length > 0 ? pick(random, keys) : key;
      const swap = record[key];
      record[key] = record[other];
      record[other] = swap;
      return "swap";
    }
    case 3:
      record[key] = `${NEST}${pick(random, [10, 62, 70, 200, 3000])}`;
      return "deep-nest";
    case 4:
      record[key] = "x".repeat(int(random, 8000, 40_000));
      return "huge-string";
    case 5:
      record[key] = pick(random, ODD_STRINGS) + String(record[key] ?? "");
      return "odd-unicode";
    case 6:
      record[key] = pick(random, ODD_NUMBERS);
      return "extreme-number";
    default:
      if (!Array.isArray(target)) record[pick(random, ["__proto__", "constructor", "prototype"])] = { polluted: true };
      return "proto-key";
  }
}

/** Mutations of the JSON text itself: what a tree cannot express. */
function mutateText(random: Random, text: string): { text: string; name: string } {
  switch (int(random, 0, 4)) {
    case 0:
      return { text: text.slice(0, int(random, 0, text.length)), name: "truncate" };
    case 1: {
      // A duplicated key: the last one wins in JSON.parse; nothing may be confused by the first.
      const at = text.indexOf('"method"');
      return {
        text: at === -1 ? text : `${text.slice(0, at)}"method":"initialize",${text.slice(at)}`,
        name: "duplicate-key",
      };
    }
    case 2:
      return { text: text.replace(/:(\d+)/, ":1e999"), name: "number-overflow" };
    case 3:
      return { text: `[${text}]`, name: "batch-wrap" };
    default:
      return { text: text.replace(/"[^"]*"/, '"\\ud800"'), name: "escaped-surrogate" };
  }
}

const HEADERS = [
  "mcp-method",
  "mcp-name",
  "mcp-protocol-version",
  "mcp-session-id",
  "last-event-id",
  "content-type",
  "accept",
];

function headerValue(random: Random, pool: FuzzPool): string | null {
  switch (int(random, 0, 9)) {
    case 0:
      return null;
    case 1:
      return "";
    case 2:
      return pick(random, ["2026-07-28", "2025-11-25", "2025-03-26", "1999-01-01", "9999-99-99"]);
    case 3:
      return pick(random, ["tools/call", "initialize", "server/discover", "x"]);
    case 4:
      return pick(random, ["=?base64?@@@?=", "=?base64?cmVjb3Jk?=", "=?base64??=", "=?base64?ZWNobw==?="]);
    case 5:
      return pool.sessions.length > 0 ? pick(random, pool.sessions).id : crypto.randomUUID();
    case 6:
      return "v".repeat(int(random, 100, 6000));
    case 7:
      return pick(random, ["text/plain", "application/json; charset=latin1", "application/jsonx", "*/*"]);
    case 8:
      return pick(random, ["application/json", "text/event-stream", "get/1", "x/99999999999999999999"]);
    default:
      return crypto.randomUUID();
  }
}

/**
 * Applies 0–3 mutations to a valid request (about a quarter go out valid, as controls), and with
 * auth on sometimes one of its `Authorization` header.
 */
export function mutate(random: Random, request: FuzzRequest, pool: FuzzPool): Mutated {
  const applied: string[] = [];
  const headers = { ...request.headers };
  let body = request.body === undefined ? undefined : (JSON.parse(JSON.stringify(request.body)) as Json);
  const rounds = chance(random, 0.25) ? 0 : int(random, 1, 3);
  let text: string | undefined;
  for (let round = 0; round < rounds; round++) {
    const kind = int(random, 0, 9);
    if (kind < 5 && body !== undefined) {
      applied.push(mutateTree(random, body));
    } else if (kind < 8) {
      const name = pick(random, HEADERS);
      const value = headerValue(random, pool);
      if (value === null) delete headers[name];
      else headers[name] = value;
      applied.push(`header:${name}`);
    } else if (body !== undefined) {
      const mutated = mutateText(random, text ?? JSON.stringify(body));
      text = mutated.text;
      applied.push(mutated.name);
    }
  }
  // Only a request that carries a token (an auth run) draws for it: runs without auth stay as they were.
  if (headers.authorization !== undefined) {
    const name = mutateAuthorization(random, headers);
    if (name) applied.push(name);
  }
  if (text === undefined && body !== undefined) text = JSON.stringify(body);
  if (text !== undefined) text = nestedText(text);
  return { method: request.method, headers, text, endless: request.endless === true, applied };
}
