/**
 * mcp-h3 with auth on (issue 14's `auth_vs_no_auth`): the same server and mount as systems/mcp-h3.mjs,
 * with a validator that accepts the benchmark's bearer token and returns one cached identity, as a
 * validator in front of a token cache does. Every request of the benchmark carries that token.
 * Runs in the in-process modern scenario only.
 */
import { H3 } from "h3";
import { BENCH_TOKEN } from "../lib/protocol.mjs";
import { createHandler } from "./mcp-h3.mjs";

export const info = {
  name: "mcp-h3-auth",
  label: "mcp-h3 with auth (cached identity)",
  modern: true,
  nodeServer: "none (in-process modern only)",
  legacy: "session",
};

/** A subject, so the principal is the subject and nothing is hashed per request: the cached case. */
const IDENTITY = Object.freeze({ subject: "bench-user", scopes: ["mcp"] });

export async function create() {
  const handler = createHandler({
    auth: { validate: (token) => (token === BENCH_TOKEN ? IDENTITY : undefined) },
  });
  const app = new H3().all("/mcp", handler);
  return { fetch: (request) => app.fetch(request) };
}
