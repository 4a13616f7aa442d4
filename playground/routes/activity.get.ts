/**
 * GET /activity: the live activity as a server-sent event stream. On connect it sends the kept entries,
 * then one `data:` message per finished MCP request. A closed page releases its listener at once; a page
 * that stops reading is dropped once it lags, so neither open pages nor slow ones grow the server's memory.
 */
import { createError, createEventStream, defineEventHandler } from "h3";
import { activityListenerCount, onActivity, recentActivity } from "../activity/log";

/** Open pages at most: each holds one stream. */
const MAX_LISTENERS = 32;
/** Unsent messages a page may lag behind before its stream is closed (it reconnects and gets the ring). */
const MAX_PENDING = 200;

export default defineEventHandler((event) => {
  if (activityListenerCount() >= MAX_LISTENERS) {
    throw createError({ statusCode: 503, statusMessage: "Too many activity streams open" });
  }
  const stream = createEventStream(event);
  let pending = 0;
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    unsubscribe();
    void stream.close().catch(() => {});
  };
  const send = (data: string): void => {
    if (closed) return;
    if (++pending > MAX_PENDING) return close();
    stream.push(data).then(
      () => void pending--,
      () => close(),
    );
  };
  const unsubscribe = onActivity((entry) => send(JSON.stringify(entry)));
  stream.onClosed(close);
  // A first event at once, so the response starts (and the page's EventSource opens) even with no activity yet.
  stream.push({ event: "ready", data: "" }).catch(close);
  for (const entry of recentActivity()) send(JSON.stringify(entry));
  return stream.send();
});
