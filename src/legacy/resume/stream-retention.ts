/**
 * How long the event logs of a session's POST response streams stay for `Last-Event-ID`
 * resumption: a finished stream's log is dropped once `sessions.replayWindowMs` has passed, and a
 * session keeps at most `sessions.maxStreamsPerSession` logs (past it the oldest finished one is
 * dropped at once). The GET stream's log lives as long as its session. Everything of a session
 * goes when it ends.
 *
 * One timer serves every finished stream: it is created when the first stream finishes (inside a
 * request, never at startup), fires at the earliest deadline, and is not kept once nothing waits.
 */

/** What the retention knows of one session's logs. */
export class SessionLogs {
  /** Set when the session ended: a late append is not stored (it would outlive the session). */
  ended = false;
  /** The session's GET stream has a log (dropped only with the session). */
  hasGetLog = false;
  /** POST streams with a log, oldest first: undefined while open, else when the log is dropped. */
  readonly streams = new Map<string, number | undefined>();
}

interface Expiring {
  sessionId: string;
  streamId: string;
  dropAt: number;
}

export interface RetentionOptions {
  replayWindowMs: number;
  maxStreamsPerSession: number;
  /** Drops one stream's events from the event store (background work: the caller owns the promise). */
  drop(sessionId: string, streamId: string): void;
}

export class StreamRetention {
  #options: RetentionOptions;
  #sessions = new Map<string, SessionLogs>();
  /** Finished streams waiting out the window, in the order they finished, so by deadline. */
  #expiring = new Map<string, Expiring>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: RetentionOptions) {
    this.#options = options;
  }

  /** Number of sessions whose logs are tracked. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** True while a timer waits for the next deadline. */
  get timerPending(): boolean {
    return this.#timer !== undefined;
  }

  /** The bookkeeping of a session's logs, made on first use. */
  logsOf(sessionId: string): SessionLogs {
    let logs = this.#sessions.get(sessionId);
    if (!logs) this.#sessions.set(sessionId, (logs = new SessionLogs()));
    return logs;
  }

  /** A POST stream of the session got its first event. */
  opened(sessionId: string, logs: SessionLogs, streamId: string): void {
    logs.streams.set(streamId, undefined);
    this.#trim(sessionId, logs);
  }

  /** A POST stream finished: its log stays for the replay window. */
  finished(sessionId: string, streamId: string): void {
    const logs = this.#sessions.get(sessionId);
    if (!logs?.streams.has(streamId)) return;
    // Closed: no timer any more. The log stays in the store, for a client that resumes on another
    // instance sharing it (a rolling restart); the session's end drops it, a shared store's expiry bounds it.
    if (this.#closed) return this.#release(sessionId, logs, streamId);
    const dropAt = Date.now() + this.#options.replayWindowMs;
    logs.streams.set(streamId, dropAt);
    this.#expiring.set(keyOf(sessionId, streamId), { sessionId, streamId, dropAt });
    this.#trim(sessionId, logs);
    this.#schedule();
  }

  /** Drops the logs whose window has passed (the timer does it too; a resumption asks first). */
  dropDue(now = Date.now()): void {
    for (const entry of this.#expiring.values()) {
      if (entry.dropAt > now) break;
      this.#drop(entry.sessionId, entry.streamId);
    }
  }

  /** The session ended: forget its logs (the caller drops its events from the store). */
  forget(sessionId: string): void {
    const logs = this.#sessions.get(sessionId);
    if (!logs) return;
    logs.ended = true;
    this.#sessions.delete(sessionId);
    for (const streamId of logs.streams.keys()) this.#expiring.delete(keyOf(sessionId, streamId));
  }

  /**
   * Stops the timer (the handler closes). Logs still waiting, and those of streams finishing from
   * now on, are left in the store: dropped with their sessions, or by the store's own expiry.
   */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Past the cap, drops the oldest finished streams' logs; open streams are never dropped. */
  #trim(sessionId: string, logs: SessionLogs): void {
    let over = logs.streams.size - this.#options.maxStreamsPerSession;
    if (over <= 0) return;
    for (const [streamId, dropAt] of logs.streams) {
      if (dropAt === undefined) continue;
      this.#drop(sessionId, streamId);
      if (--over === 0) return;
    }
  }

  #drop(sessionId: string, streamId: string): void {
    this.#expiring.delete(keyOf(sessionId, streamId));
    const logs = this.#sessions.get(sessionId);
    if (logs) this.#release(sessionId, logs, streamId);
    this.#options.drop(sessionId, streamId);
  }

  /** Stops tracking a stream's log (and the session's, once it tracks nothing). */
  #release(sessionId: string, logs: SessionLogs, streamId: string): void {
    if (logs.streams.delete(streamId) && logs.streams.size === 0 && !logs.hasGetLog) this.#sessions.delete(sessionId);
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    const first = this.#expiring.values().next().value;
    if (!first) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.dropDue();
        this.#schedule();
      },
      Math.max(0, first.dropAt - Date.now()),
    );
    // A waiting log must not keep a Node process alive.
    (this.#timer as { unref?: () => void }).unref?.();
  }
}

/** A stream's key among all sessions' (a session id never contains a line break). */
function keyOf(sessionId: string, streamId: string): string {
  return `${sessionId}\n${streamId}`;
}
