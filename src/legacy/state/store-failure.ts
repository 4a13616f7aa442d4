/**
 * A session, event or bus store that fails (a networked store rejects) must not crash the process
 * nor hang the request: where a request cannot be served without the store it gets 503 with
 * `Retry-After`; inside a call, `-32603`.
 */
import { INTERNAL_ERROR } from "../../protocol/errors.ts";
import type { JsonRpcId } from "../../protocol/jsonrpc.ts";
import type { Reply } from "../../http/reply.ts";
import { refuse, type Refusal } from "../../http/refusal.ts";

/** Seconds a client is asked to wait before trying again (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 5;

/** A store call failed; `cause` is what it rejected with. */
export class StoreFailure extends Error {
  constructor(cause: unknown) {
    super("A session store failed", { cause });
    this.name = "StoreFailure";
  }
}

/**
 * Calls a store method, so that a synchronous throw becomes a rejection like any other failure
 * (a store is user code: it may throw before it returns its promise).
 */
export function attempt<T>(call: () => Promise<T>): Promise<T> {
  try {
    return call();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Calls a store method and awaits it, turning a failure into a {@link StoreFailure}. */
export async function stored<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof StoreFailure ? error : new StoreFailure(error);
  }
}

/** 503 with `Retry-After`: the request needs a store that failed. The store's error is not shown. */
export const STORE_FAILED: Refusal = {
  status: 503,
  code: INTERNAL_ERROR,
  message: "Service Unavailable: the session store failed; try again later",
  headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
};

/** {@link STORE_FAILED} as the whole answer. */
export function storeFailedReply(id: JsonRpcId | null): Reply {
  return refuse(id, STORE_FAILED);
}

/** Runs `serve`, answering a {@link StoreFailure} with {@link storeFailedReply}; other errors pass. */
export async function answeringStoreFailure(id: JsonRpcId | null, serve: () => Promise<Reply>): Promise<Reply> {
  try {
    return await serve();
  } catch (error) {
    if (error instanceof StoreFailure) return storeFailedReply(id);
    throw error;
  }
}
