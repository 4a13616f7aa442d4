/**
 * The server's questions, answered in the page: elicitation (a form generated from the requested
 * schema, or a link for URL mode) and sampling (the messages shown, the reply typed in a text box).
 * One question at a time is shown in #ask; each handler resolves when the user answers, declines or
 * cancels, and a call's cancel (its abort signal) withdraws the question.
 */
import { byId, el, json } from "./dom.ts";
import { schemaForm } from "./schema-form.ts";

type ElicitResult = { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };

interface ElicitParams {
  mode?: string;
  message: string;
  requestedSchema?: Record<string, unknown>;
  url?: string;
}

/** Shows `body` in #ask until `settle` is called; a signal abort cancels. */
function ask<T>(
  title: string,
  body: (settle: (value: T) => void) => Node[],
  cancelled: T,
  signal?: AbortSignal,
): Promise<T> {
  const box = byId("ask");
  return new Promise<T>((resolve) => {
    let done = false;
    const settle = (value: T): void => {
      if (done) return;
      done = true;
      signal?.removeEventListener("abort", onAbort);
      box.replaceChildren();
      box.hidden = true;
      resolve(value);
    };
    const onAbort = (): void => settle(cancelled);
    signal?.addEventListener("abort", onAbort, { once: true });
    box.replaceChildren(el("h3", {}, title), ...body(settle));
    box.hidden = false;
    box.querySelector<HTMLElement>("input, textarea, select, button")?.focus();
  });
}

/** Only http(s) URLs become links: a server's `javascript:` URL stays text. */
function safeUrl(url: string | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

export function answerElicitation(params: ElicitParams, signal?: AbortSignal): Promise<ElicitResult> {
  const cancel: ElicitResult = { action: "cancel" };
  return ask<ElicitResult>(
    "The server asks",
    (settle) => {
      const message = el("p", { id: "ask-message" }, params.message);
      const decline = el("button", { type: "button", id: "ask-decline" }, "Decline");
      decline.addEventListener("click", () => settle({ action: "decline" }));
      const dismiss = el("button", { type: "button", id: "ask-cancel" }, "Cancel");
      dismiss.addEventListener("click", () => settle(cancel));
      if (params.mode === "url") {
        const href = safeUrl(params.url);
        const accept = el("button", { type: "button", id: "ask-accept" }, "Done (accept)");
        accept.addEventListener("click", () => settle({ action: "accept" }));
        const link = href
          ? el("a", { href, target: "_blank", rel: "noopener noreferrer", id: "ask-url" }, href)
          : el("code", {}, params.url ?? "");
        return [message, el("p", {}, "Open: ", link), accept, decline, dismiss];
      }
      const { form, read } = schemaForm(params.requestedSchema ?? { type: "object" }, "Accept", "ask-");
      form.id = "ask-form";
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const content = read();
        if (content) settle({ action: "accept", content });
      });
      form.append(decline, dismiss);
      return [message, form];
    },
    cancel,
    signal,
  );
}

interface SamplingParams {
  messages: { role: string; content: unknown }[];
  systemPrompt?: string;
  maxTokens?: number;
}

const WITHDRAWN = Symbol("withdrawn");

export async function answerSampling(params: SamplingParams, signal?: AbortSignal): Promise<unknown> {
  const answer = await ask<unknown>(
    "The server asks for a model's reply (you are the model)",
    (settle) => {
      const messages = params.messages.map((message) => {
        const content = message.content as { type?: string; text?: string };
        return el("li", {}, `${message.role}: ${content.type === "text" ? content.text : json(content)}`);
      });
      const reply = el("textarea", { id: "sampling-reply", rows: 4, "aria-label": "Reply" });
      const send = el("button", { type: "submit" }, "Send reply");
      const form = el("form", { id: "sampling-form" }, reply, send);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        settle({
          role: "assistant",
          content: { type: "text", text: reply.value },
          model: "mcp-h3-inspector (typed by the user)",
          stopReason: "endTurn",
        });
      });
      return [
        params.systemPrompt ? el("p", {}, `System: ${params.systemPrompt}`) : null,
        el("ol", { id: "sampling-messages" }, ...messages),
        form,
      ].filter((node) => node !== null);
    },
    WITHDRAWN,
    signal,
  );
  // A user who withdraws: the request fails, as a host's refusal would.
  if (answer === WITHDRAWN) throw new Error("The user cancelled the sampling request");
  return answer;
}
