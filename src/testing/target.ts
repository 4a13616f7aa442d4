/**
 * What `createMcpTestClient` can talk to, reduced to one endpoint URL and the `fetch` that reaches
 * it: anything with `fetch(Request)` (the handlers `defineMcpHandler` and `defineMcpFetchHandler`
 * return, an h3 v2 app) or a bare `(Request) => Response` is called in process, with no port; an
 * h3 v1 app goes through h3 v1's own `toWebHandler`; a URL is a running server, reached over the
 * network with the global `fetch`.
 */
import type { McpTestTarget } from "../types/testing.ts";

/** Where the transport posts, and how. */
export interface ResolvedTarget {
  url: URL;
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Whether the target runs in this process (no port). */
  inProcess: boolean;
}

type WebHandler = (request: Request) => Response | Promise<Response>;

/** An h3 v1 app: `createApp()` gives an object with `handler` and `stack`, and no `fetch`. */
function isH3V1App(target: object): target is { handler: unknown; stack: unknown[] } {
  const app = target as { handler?: unknown; stack?: unknown; fetch?: unknown };
  return typeof app.handler === "function" && Array.isArray(app.stack) && app.fetch === undefined;
}

/**
 * h3 v1's `toWebHandler`, from the h3 the application itself installed (a peer: nothing of h3 is
 * bundled). An h3 v1 app has no `fetch`; its web handler runs it on mocked Node objects, which
 * mcp-h3's handler answers with a Web `Response` (streams included).
 */
async function v1WebHandler(app: object): Promise<WebHandler> {
  const h3 = (await import("h3")) as { toWebHandler?: (app: unknown) => WebHandler };
  // h3 v2 has an `H3` class and a `toWebHandler` of its own, which cannot run a v1 app.
  if (typeof h3.toWebHandler !== "function" || "H3" in h3) {
    throw new TypeError(
      "createMcpTestClient: this looks like an h3 v1 app, but the installed h3 is not v1; pass toWebHandler(app) from h3 v1",
    );
  }
  return h3.toWebHandler(app);
}

function inProcess(handler: WebHandler, base: string): ResolvedTarget {
  return {
    url: new URL(base),
    inProcess: true,
    fetch: async (input, init) => await handler(new Request(input, init)),
  };
}

/**
 * The endpoint of `target`. `path` is where an app mounts the MCP handler (default `/mcp`);
 * a handler given on its own answers at any path.
 */
export async function resolveTarget(target: McpTestTarget, path = "/mcp"): Promise<ResolvedTarget> {
  if (typeof target === "string" || target instanceof URL) {
    return { url: new URL(target), fetch: (input, init) => fetch(input, init), inProcess: false };
  }
  const base = new URL(path, "http://localhost").href;
  const fetcher = (target as { fetch?: unknown }).fetch;
  if (typeof fetcher === "function") {
    return inProcess((request) => (fetcher as WebHandler).call(target, request), base);
  }
  if (typeof target === "object" && target !== null && isH3V1App(target))
    return inProcess(await v1WebHandler(target), base);
  if (typeof target === "function") return inProcess(target as WebHandler, base);
  throw new TypeError(
    "createMcpTestClient: the target must be a handler with fetch(Request), an h3 app, a (Request) => Response function, or a URL",
  );
}
