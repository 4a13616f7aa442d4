/**
 * One soak session, as a resilient legacy client would drive it through a balancer: it holds its
 * GET stream (resuming with `Last-Event-ID` whenever it breaks), and calls tools in a loop — one that
 * reports progress on its POST stream (resumed the same way when the stream breaks before the
 * answer) and one that sends a notification to the session's GET stream. Requests refused while an
 * instance or Redis is away (connection errors, 502, 503) are sent again after a pause.
 */
import { LEGACY_VERSION, toolCall } from "../helpers/legacy-raw.ts";
import type { Ledger } from "./ledger.ts";
import { readSse, type SoakEvent } from "./sse-reader.ts";

const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
/** Pause before sending again after a refusal or a broken stream (the fixture advertises retry: 500). */
const RETRY_PAUSE_MS = 200;
/** How long one call may take, resumptions included, before the soak counts it as interrupted. */
const CALL_DEADLINE_MS = 8_000;

export interface WorkerCounts {
  calls: number;
  interruptedCalls: number;
  resumptions: number;
  retries: number;
  /** Requests answered 404 for a session that should exist. */
  sessionsLost: number;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An id to resume from: one the server kept (`<stream>/0` is an event sent while the store was away). */
const isKept = (id: string | undefined): id is string => id !== undefined && !id.endsWith("/0");

export class SessionWorker {
  readonly counts: WorkerCounts = { calls: 0, interruptedCalls: 0, resumptions: 0, retries: 0, sessionsLost: 0 };
  #sessionId = "";
  #headers: Record<string, string> = {};
  #getLastId: string | undefined;
  #getAbort = new AbortController();
  #getLoop: Promise<void> | undefined;
  #nextId = 1;
  #stopping = false;

  readonly url: string;
  readonly ledger: Ledger;
  readonly until: () => boolean;

  /** `until` says when the soak is over. */
  constructor(url: string, ledger: Ledger, until: () => boolean) {
    this.url = url;
    this.ledger = ledger;
    this.until = until;
  }

  /** A request, sent again while refused for an instance or Redis being away. */
  async #send(
    init: RequestInit & { headers: Record<string, string> },
    deadline: number,
  ): Promise<Response | undefined> {
    for (;;) {
      try {
        const response = await fetch(this.url, init);
        if (response.status !== 502 && response.status !== 503) return response;
        await response.body?.cancel();
      } catch {
        if (init.signal?.aborted) return undefined;
      }
      if (Date.now() > deadline || init.signal?.aborted) return undefined;
      this.counts.retries++;
      await pause(RETRY_PAUSE_MS);
    }
  }

  #record(event: SoakEvent): void {
    if (event.id !== undefined) this.ledger.receive(this.#sessionId, event.id, event.data);
  }

  /** Opens the session (initialize, initialized) and its GET stream. */
  async open(): Promise<void> {
    const deadline = Date.now() + 30_000;
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: "soak", version: "1" } },
    };
    for (;;) {
      const response = await this.#send(
        { method: "POST", headers: POST_HEADERS, body: JSON.stringify(initialize) },
        deadline,
      );
      if (!response) throw new Error("initialize was refused until its deadline");
      await response.text();
      const id = response.headers.get("mcp-session-id");
      if (response.status === 200 && id) {
        this.#sessionId = id;
        break;
      }
      if (Date.now() > deadline) throw new Error(`initialize answered ${response.status}`);
      await pause(RETRY_PAUSE_MS);
    }
    this.#headers = { ...POST_HEADERS, "mcp-session-id": this.#sessionId, "mcp-protocol-version": LEGACY_VERSION };
    const body = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    const initialized = await this.#send({ method: "POST", headers: this.#headers, body }, deadline);
    await initialized?.body?.cancel();
    this.#getLoop = this.#holdGetStream();
  }

  /** Keeps the GET stream open, resuming after the last id it received whenever it breaks or ends. */
  async #holdGetStream(): Promise<void> {
    const signal = this.#getAbort.signal;
    while (!signal.aborted) {
      const headers: Record<string, string> = { ...this.#headers, accept: "text/event-stream" };
      if (this.#getLastId !== undefined) headers["last-event-id"] = this.#getLastId;
      const response = await this.#send({ method: "GET", headers, signal }, Number.POSITIVE_INFINITY);
      if (!response) return;
      if (response.status === 404) this.counts.sessionsLost++;
      if (response.status === 200) {
        if (this.#getLastId !== undefined) this.counts.resumptions++;
        await readSse(response, (event) => {
          this.#record(event);
          if (isKept(event.id)) this.#getLastId = event.id;
          return false;
        });
      } else {
        // A resumption refused (400: the id is no longer replayable) starts a fresh stream; what it
        // could not replay stays in the log and the ledger counts it as lost.
        if (response.status === 400) this.#getLastId = undefined;
        await response.body?.cancel();
      }
      if (!signal.aborted) await pause(RETRY_PAUSE_MS);
    }
  }

  /** Calls `name` and reads its answer, resuming its stream with GET + Last-Event-ID when it breaks. */
  async #call(name: string, args: Record<string, unknown>): Promise<void> {
    const requestId = this.#nextId++;
    const deadline = Date.now() + CALL_DEADLINE_MS;
    // Bounds the reading too: a resumed stream whose handler died with its instance stays open.
    const signal = AbortSignal.timeout(CALL_DEADLINE_MS);
    const isAnswer = (event: SoakEvent): boolean => event.data.includes(`"id":${requestId}`);
    let lastId: string | undefined;
    let answered = false;
    const onEvent = (event: SoakEvent): boolean => {
      this.#record(event);
      if (isKept(event.id)) lastId = event.id;
      return (answered = isAnswer(event));
    };
    const body = JSON.stringify(toolCall(requestId, name, args, `soak-${requestId}`));
    const response = await this.#send({ method: "POST", headers: this.#headers, body, signal }, deadline);
    if (!response) return void this.counts.interruptedCalls++;
    if (response.status === 404) this.counts.sessionsLost++;
    const type = response.headers.get("content-type") ?? "";
    if (!type.includes("text/event-stream")) {
      const text = await response.text().catch(() => "");
      if (response.status === 200 && text.includes('"result"')) this.counts.calls++;
      else this.counts.interruptedCalls++;
      return;
    }
    await readSse(response, onEvent);
    while (!answered && lastId !== undefined && Date.now() < deadline) {
      await pause(RETRY_PAUSE_MS);
      const headers = { ...this.#headers, accept: "text/event-stream", "last-event-id": lastId };
      const resumed = await this.#send({ method: "GET", headers, signal }, deadline);
      if (!resumed) break;
      if (resumed.status !== 200) {
        await resumed.body?.cancel();
        continue;
      }
      this.counts.resumptions++;
      await readSse(resumed, onEvent);
    }
    if (answered) this.counts.calls++;
    else this.counts.interruptedCalls++;
  }

  /** Calls in a loop until the soak ends. */
  async run(): Promise<void> {
    let cycle = 0;
    while (!this.until()) {
      cycle++;
      await this.#call("test_progress_steps", { steps: 5, delayMs: 20 });
      await this.#call("test_notify_session", { text: `cycle ${cycle}` });
      await pause(100 + Math.floor(Math.random() * 100));
    }
  }

  /**
   * Ends the GET stream, then reads once more from its last id what is still logged after it (the
   * final resumption), so the ledger compares what the server logged with everything received.
   */
  async finish(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#getAbort.abort();
    await this.#getLoop;
    if (this.#getLastId === undefined) return;
    const headers = { ...this.#headers, accept: "text/event-stream", "last-event-id": this.#getLastId };
    const abort = new AbortController();
    const response = await this.#send({ method: "GET", headers, signal: abort.signal }, Date.now() + 10_000);
    if (response?.status !== 200) return void (await response?.body?.cancel());
    // The replay comes at once; a live stream then stays open: stop after a quiet moment.
    let quiet = setTimeout(() => abort.abort(), 500);
    await readSse(response, (event) => {
      this.#record(event);
      clearTimeout(quiet);
      quiet = setTimeout(() => abort.abort(), 300);
      return false;
    });
    clearTimeout(quiet);
  }
}
