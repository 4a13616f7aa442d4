/**
 * The HTTP answer of a pending call before its response stream exists. Most pending calls send
 * nothing before answering (a store read such as `tasks/get`, an async tool): they are answered as
 * plain JSON, exactly as a synchronous call is, and never build a stream. The stream is built when
 * something first needs it (progress, a log line, a server→client request, a handler watching the
 * connection), or when the call has waited the keep-alive interval in silence: from then on the
 * answer is the stream's (SSE, or still JSON if the stream did not open before the end).
 *
 * Why not build the stream for every pending call: its channel, queue and reply were most of the
 * cost of a `tasks/get` over a plain `tools/call` (`task_get_vs_call` of `node bench/run.mjs
 * --only=tasks`, 0.69 with the stream built at once). The wait rides the shared keep-alive clock,
 * so a silent call costs no timer of its own.
 */
import { channelOf, type RequestContext } from "../context/request-context.ts";
import type { Reply } from "../http/reply.ts";
import { KeepAliveWatched } from "../stream/keep-alive.ts";
import type { ResponseChannel } from "../stream/channel.ts";

export class PendingReply extends KeepAliveWatched {
  /** The answer: the JSON one (see {@link PendingReply.answer}), or the stream's once it exists. */
  readonly promise: Promise<Reply>;
  readonly #context: RequestContext;
  #resolve!: (reply: Reply | Promise<Reply>) => void;
  #answered = false;

  constructor(context: RequestContext, keepAliveMs: number) {
    super();
    this.#context = context;
    this.promise = new Promise((resolve) => (this.#resolve = resolve));
    if (keepAliveMs > 0) this.startWaiting(keepAliveMs);
  }

  /** Silent for a keep-alive interval: the stream is built and opened, so it can carry keep-alives. */
  overdue(): void {
    channelOf(this.#context).overdue();
  }

  /** The stream was built: it gives the answer from now on. */
  streamBuilt(channel: ResponseChannel): void {
    this.stopWaiting();
    this.#resolve(channel.reply);
  }

  /** True once answered without a stream: a stream built later has nobody to reach. */
  get answered(): boolean {
    return this.#answered;
  }

  /** Answered before any stream was built. */
  answer(reply: Reply): void {
    this.#answered = true;
    this.stopWaiting();
    this.#resolve(reply);
  }
}
