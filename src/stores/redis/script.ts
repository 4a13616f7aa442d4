/**
 * A Lua script the stores run on Redis: several commands in one round trip, atomically. It is sent
 * by its SHA1 (EVALSHA), so a request carries a few dozen bytes instead of the script's text and
 * Redis finds it compiled; when Redis does not know it (restarted, `SCRIPT FLUSH`, another server
 * behind the URL) it is sent once in full (EVAL), which caches it again.
 */
import type { RedisClient } from "./connection.ts";

export class RedisScript {
  readonly source: string;
  /** The digest, computed on first use (not at import: nothing is computed while modules load). */
  #sha: Promise<string> | undefined;
  #shaText: string | undefined;

  constructor(source: string) {
    this.source = source;
  }

  /** Runs the script with its keys and arguments; rejects as the command would (Redis away, a script error). */
  async run(client: RedisClient, keys: string[], args: string[]): Promise<unknown> {
    const sha = this.#shaText ?? (this.#shaText = await (this.#sha ??= sha1(this.source)));
    try {
      return await client.evalSha(sha, { keys, arguments: args });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return client.eval(this.source, { keys, arguments: args });
    }
  }
}

/** The hex SHA1 of a text, as Redis names its scripts (Web Crypto: no Node import). */
async function sha1(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
