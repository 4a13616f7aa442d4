/**
 * The 2.x client (`@modelcontextprotocol/client`) in the modern era, over real HTTP with its own
 * Streamable HTTP transport: pinned to 2026-07-28, or in `auto` mode (probe with `server/discover`,
 * fall back to `initialize` only on legacy evidence). Every HTTP exchange is recorded with its
 * parsed JSON-RPC body and the standard headers, so a test can see what went over the wire (the
 * MRTR retries the client makes by itself, a `notifications/cancelled` it should not send).
 */
import { Client, StreamableHTTPClientTransport, type VersionNegotiationOptions } from "@modelcontextprotocol/client";
import { bearerInit, capabilitiesFor, setHooks, type ClientHooks } from "./clients.ts";

export type ModernMode = "pinned" | "auto";

export interface ModernModeSpec {
  name: ModernMode;
  versionNegotiation: VersionNegotiationOptions;
}

export const MODERN_PROTOCOL_VERSION = "2026-07-28";

export const MODERN_MODES: ModernModeSpec[] = [
  { name: "pinned", versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } },
  { name: "auto", versionNegotiation: { mode: "auto" } },
];

/** One HTTP exchange of the transport: request as sent, status and content type as received. */
export interface WireExchange {
  httpMethod: string;
  /** The parsed JSON body of a POST (a single message), else undefined. */
  body: { id?: unknown; method?: string; params?: Record<string, unknown> } | undefined;
  /** Standard request headers (SEP-2243), lower-case names, as sent. */
  headers: { protocolVersion: string | null; method: string | null; name: string | null; session: string | null };
  status?: number;
  contentType?: string | null;
  /**
   * The parsed body of an `application/json` response (read from a clone, so the client still
   * reads the original). Event streams are not captured: a listen stream never ends.
   */
  response?: Promise<unknown>;
}

export interface ModernConnection {
  client: Client;
  /** Every HTTP exchange, in order. */
  readonly wire: readonly WireExchange[];
  /** What the client reported through `onerror`. */
  readonly errors: readonly string[];
  /** The exchanges that carried a JSON-RPC request of `rpcMethod`. */
  requests(rpcMethod: string): WireExchange[];
  close(): Promise<void>;
}

function parseBody(body: unknown): WireExchange["body"] {
  if (typeof body !== "string") return undefined;
  try {
    const message: unknown = JSON.parse(body);
    return message !== null && typeof message === "object" && !Array.isArray(message)
      ? (message as WireExchange["body"])
      : undefined;
  } catch {
    return undefined;
  }
}

function recordingFetch(wire: WireExchange[]): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const entry: WireExchange = {
      httpMethod: (init?.method ?? "GET").toUpperCase(),
      body: parseBody(init?.body),
      headers: {
        protocolVersion: headers.get("mcp-protocol-version"),
        method: headers.get("mcp-method"),
        name: headers.get("mcp-name"),
        session: headers.get("mcp-session-id"),
      },
    };
    wire.push(entry);
    const response = await fetch(input, init);
    entry.status = response.status;
    entry.contentType = response.headers.get("content-type");
    if (entry.contentType?.includes("application/json")) {
      entry.response = response
        .clone()
        .text()
        .then((text) => JSON.parse(text) as unknown)
        .catch(() => undefined);
    }
    return response;
  };
}

/**
 * Connects a 2.x client in a modern negotiation mode; `hooks` as for the legacy clients.
 * `capabilities` replaces the ones derived from the hooks (e.g. `elicitation: { url: {} }`).
 */
export async function connectModern(
  url: string,
  mode: ModernModeSpec,
  hooks: ClientHooks = {},
  capabilities: Record<string, object> = capabilitiesFor(hooks),
  token?: string,
): Promise<ModernConnection> {
  const client = new Client(
    { name: "client-2.x-modern-test", version: "2.0.0" },
    { capabilities, versionNegotiation: mode.versionNegotiation },
  );
  // In the modern era the elicitation and sampling handlers are not reached by server→client requests:
  // the client's multi round-trip driver calls them to fulfil the `inputRequests` of an `input_required` result.
  setHooks(client, hooks);
  const wire: WireExchange[] = [];
  const errors: string[] = [];
  client.onerror = (error) => void errors.push(String(error));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch(wire), ...bearerInit(token) }),
  );
  return {
    client,
    wire,
    errors,
    requests: (rpcMethod) => wire.filter((exchange) => exchange.body?.method === rpcMethod),
    close: () => client.close(),
  };
}
