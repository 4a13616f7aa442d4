/** Reading an SSE body while it is still open: events one by one as they arrive, and its end. */
import { parseSse, type SseEvent } from "./sse.ts";

export interface LiveSse {
  /** The next event (with data) whose data matches `pattern`; rejects after `timeoutMs` or at the end of the body. */
  next(pattern?: RegExp, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the body (true), or false after `timeoutMs`. */
  endedWithin(timeoutMs: number): Promise<boolean>;
  /** Closes the connection from the client side. */
  close(): void;
}

/** Starts reading `response` (an open `text/event-stream` body); `abort` is the fetch's controller. */
export function liveSse(response: Response, abort: AbortController): LiveSse {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffered = "";
  let ended = false;
  let wake: (() => void) | undefined;
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffered += decoder.decode(value, { stream: true });
        const cut = buffered.lastIndexOf("\n\n");
        if (cut !== -1) {
          events.push(...parseSse(buffered.slice(0, cut + 2)));
          buffered = buffered.slice(cut + 2);
        }
        wake?.();
      }
    } catch {
      // Aborted by the client.
    }
    ended = true;
    wake?.();
  })();

  const waitFor = async <T>(found: () => T | undefined, timeoutMs: number, what: string): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = found();
      if (value !== undefined) return value;
      if (ended) throw new Error(`the stream ended before ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };

  return {
    next(pattern = /./, timeoutMs = 3000) {
      return waitFor(
        () => {
          const index = events.findIndex((event) => event.data !== "" && pattern.test(event.data));
          return index === -1 ? undefined : events.splice(0, index + 1).at(-1);
        },
        timeoutMs,
        `an event matching ${pattern}`,
      );
    },
    async endedWithin(timeoutMs) {
      const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), timeoutMs));
      return Promise.race([pump.then(() => true as const), timeout]);
    },
    close() {
      abort.abort();
      void reader.cancel().catch(() => {});
    },
  };
}

/** Opens a legacy GET stream of a session; the response must be an event stream. */
export async function openGetStream(
  url: string,
  headers: Record<string, string>,
): Promise<{ response: Response; sse: LiveSse }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: "GET",
    headers: { accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  return { response, sse: liveSse(response, abort) };
}

/**
 * Opens a GET stream as {@link openGetStream} does, retried every 20 ms (at most `tries` times)
 * while the server still sees the session's previous GET stream as open (409): a server notices a
 * client gone from an idle stream only at its next write.
 */
export async function openGetStreamWhenFree(
  url: string,
  headers: Record<string, string>,
  tries = 50,
): Promise<{ response: Response; sse: LiveSse }> {
  for (let tried = 0; ; tried++) {
    const opened = await openGetStream(url, headers);
    if (opened.response.status !== 409 || tried === tries) return opened;
    opened.sse.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
