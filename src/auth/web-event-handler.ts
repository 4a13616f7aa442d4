/**
 * One small handler object for both h3 majors and plain fetch hosts, for the auth helpers that answer
 * from the request line alone (method and URL). Like `h3.ts`, it imports nothing from h3 at run time:
 * an h3 v2 event carries a Web `Request`; an h3 v1 event carries Node's request, read structurally here
 * so that no `node:` module is needed (Workers without `nodejs_compat` load this file too).
 */
import type { H3Event } from "h3";
import type { WebEventHandler } from "../types/auth-helpers.ts";

/** What the helpers need of a request: its method (upper case) and its absolute URL. */
export interface RequestLine {
  readonly method: string;
  /** Absolute URL; `undefined` when the request's Host cannot make one (the helper answers 400). */
  readonly url: URL | undefined;
}

/** What is read of h3 v1's event: Node's request, as far as the request line goes. */
interface V1EventShape {
  node: {
    req: {
      method?: string;
      url?: string;
      /** Set by h3 v1's app before a prefix mount strips `url`. */
      originalUrl?: string;
      headers: Record<string, string | string[] | undefined>;
      socket?: { encrypted?: boolean };
    };
  };
}

function parseUrl(text: string, base?: string): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}

/** The request line of an h3 v2 event (a Web `Request` on `event.req`) or an h3 v1 event (Node's request). */
export function requestLineOf(event: H3Event): RequestLine {
  // h3 v1's event has a deprecated `req` too (Node's request): a Web `Request` is told apart by a method of its prototype.
  const request = (event as unknown as { req?: Request }).req;
  if (typeof request?.text === "function") return { method: request.method, url: parseUrl(request.url) };
  const req = (event as unknown as V1EventShape).node.req;
  const host = req.headers.host;
  const scheme = req.socket?.encrypted ? "https" : "http";
  // A Host that is missing, repeated or not a host makes no URL: the answer is 400, not a guess.
  const base = typeof host === "string" && host !== "" ? parseUrl(`${scheme}://${host}`) : undefined;
  const path = req.originalUrl ?? req.url ?? "/";
  return {
    method: (req.method ?? "GET").toUpperCase(),
    // Joined as text: resolving "//other.host/x" against the base would take the origin from the path.
    url: base && path.startsWith("/") ? parseUrl(base.origin + path) : undefined,
  };
}

/** Wraps `answer` as a handler for h3 v1, h3 v2 (it returns a Web `Response`, which both send) and `.fetch`. */
export function defineWebEventHandler(answer: (line: RequestLine) => Response): WebEventHandler {
  const handler = (event: H3Event): Response => answer(requestLineOf(event));
  const fetch = (request: Request): Response => answer({ method: request.method, url: parseUrl(request.url) });
  return Object.assign(handler, { __is_handler__: true as const, fetch });
}
