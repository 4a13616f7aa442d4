/**
 * Lets the inspector's loopback rule work under `nuxi dev` / `nitro dev` (nitropack 2), without opening it to
 * anyone else (src/inspector/dev-proxy.ts says how). In dev only: a random token goes into the dev build (a Nitro
 * plugin sets it in the worker), and a dev handler on the dev server, which sees the visitor's own socket, drops any
 * header of that name from each request and sets it to the token only when the loopback rule holds there: a loopback
 * peer, a loopback Host and no forwarding header. A production build carries neither.
 */
import { mayServe } from "../inspector/access.ts";
import { DEV_PROXY_HEADER, DEV_PROXY_TOKEN_KEY } from "../inspector/dev-proxy.ts";
import { toBase64Url } from "../modern/mrtr/base64url.ts";

/** What this file touches of Nitro's options (nitropack 2's dev server; nitro 3 has no `devHandlers`). */
export interface DevProxyNitroOptions {
  dev?: boolean;
  virtual?: Record<string, string | (() => string | Promise<string>)>;
  plugins?: string[];
  devHandlers?: { route?: string; handler: unknown }[];
}

/** The part of Node's request the dev handler reads and writes (h3 v1's `event.node.req`). */
interface NodeRequestLike {
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string };
}

const PLUGIN_ID = "#mcp-h3/dev-proxy-token";

/** In dev, vouches on the dev server for the requests that pass the loopback rule there. */
export function vouchForDevProxy(options: DevProxyNitroOptions): void {
  if (options.dev !== true || !Array.isArray(options.devHandlers)) return;
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  options.virtual ??= {};
  const key = JSON.stringify(DEV_PROXY_TOKEN_KEY);
  options.virtual[PLUGIN_ID] = `globalThis[Symbol.for(${key})] = ${JSON.stringify(token)};\nexport default () => {};\n`;
  (options.plugins ??= []).push(PLUGIN_ID);
  const handler = (event: { node: { req: NodeRequestLike } }): undefined => {
    const { headers, socket } = event.node.req;
    // Whatever a client sent under this name is dropped before anything reads it.
    delete headers[DEV_PROXY_HEADER];
    const header = (name: string): string | null => {
      const value = headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    };
    if (mayServe("loopback", { header, remoteAddress: socket?.remoteAddress })) headers[DEV_PROXY_HEADER] = token;
    return undefined;
  };
  // First, before the dev server's proxy adds its own forwarding headers; h3 v1 takes it as a handler as it is.
  options.devHandlers.unshift({ handler: Object.assign(handler, { __is_handler__: true }) });
}
