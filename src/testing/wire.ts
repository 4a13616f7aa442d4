/**
 * What the test client does on the wire besides the SDK's transport: the `fetch` it gives the
 * transport (which turns a 401 or 403 into the SDK's HTTP error carrying the server's own message,
 * where the transport alone would say only "Unauthorized"), and one raw POST of a JSON-RPC request
 * whose answer the SDK's client cannot take (a `tools/call` answered with a task, on 2026-07-28).
 */
import { ProtocolError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import type { ResolvedTarget } from "./target.ts";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A JSON-RPC message as read back. */
export interface WireMessage {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** The server's message in a refused answer's JSON-RPC error body, else the body (or status text). */
function serverMessage(text: string, response: Response): string {
  try {
    const message = (JSON.parse(text) as WireMessage).error?.message;
    if (typeof message === "string") return message;
  } catch {
    // Not JSON: the body as it is.
  }
  return text || response.statusText;
}

/**
 * `fetch` for the transport: a 401 or 403 fails the request at once with an `SdkHttpError`
 * (`CLIENT_HTTP_AUTHENTICATION` or `CLIENT_HTTP_FORBIDDEN`) whose message is the server's, and whose
 * data has the status, the body and the `WWW-Authenticate` challenge. `onRefusal` sees it first, and
 * an error answer of another status too (as an `SdkHttpError`, the response passed on): the modern
 * era's version negotiation reports a refused probe only as a failed negotiation.
 */
export function refusingFetch(inner: Fetch, onRefusal: (error: SdkHttpError) => void): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok || response.status === 202) return response;
    if (response.status !== 401 && response.status !== 403) {
      // Noted, not thrown: the transport reads a 400's JSON-RPC error itself, and a 404 or 405 on GET is normal.
      const text = await response.clone().text();
      onRefusal(
        new SdkHttpError(
          SdkErrorCode.ClientHttpNotImplemented,
          `HTTP ${response.status}: ${serverMessage(text, response)}`,
          {
            status: response.status,
            statusText: response.statusText,
            text,
          } as never,
        ),
      );
      return response;
    }
    const text = await response.text();
    const code = response.status === 401 ? SdkErrorCode.ClientHttpAuthentication : SdkErrorCode.ClientHttpForbidden;
    const error = new SdkHttpError(code, `HTTP ${response.status}: ${serverMessage(text, response)}`, {
      status: response.status,
      statusText: response.statusText,
      text,
      wwwAuthenticate: response.headers.get("www-authenticate") ?? undefined,
    } as never);
    onRefusal(error);
    throw error;
  };
}

/** The messages of an event stream body, in order. */
function eventMessages(text: string): WireMessage[] {
  const messages: WireMessage[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    if (data !== "") messages.push(JSON.parse(data) as WireMessage);
  }
  return messages;
}

/**
 * POSTs one request and reads its whole answer (JSON, or an event stream that ends with the
 * response); the notifications before it go to `onNotification`. A JSON-RPC error is thrown as
 * the SDK's `ProtocolError`.
 */
export async function postRequest(
  endpoint: Pick<ResolvedTarget, "url" | "fetch">,
  headers: Record<string, string>,
  message: WireMessage,
  onNotification: (notification: WireMessage) => void,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const response = await endpoint.fetch(endpoint.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
    signal,
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  let messages: WireMessage[];
  try {
    messages = type.includes("text/event-stream") ? eventMessages(text) : [JSON.parse(text) as WireMessage];
  } catch {
    throw new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `HTTP ${response.status}: ${text}`, {
      status: response.status,
      statusText: response.statusText,
    });
  }
  for (const each of messages) {
    if (each.id === undefined && each.method !== undefined) onNotification(each);
  }
  const answer = messages.find((each) => each.id === message.id);
  if (answer?.error) throw ProtocolError.fromError(answer.error.code, answer.error.message, answer.error.data);
  if (!answer?.result) {
    throw new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `HTTP ${response.status}: no answer to the request`, {
      status: response.status,
      statusText: response.statusText,
    });
  }
  return answer.result;
}
