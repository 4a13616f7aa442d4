/** A tool result as a host would show it: text, images, audio, resource links and embedded resources, structured content. */
import { el, json } from "./dom.ts";

interface Block {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** Only http(s) links are made clickable: a server's `javascript:` URI stays text. */
function safeHref(uri: string | undefined): string | undefined {
  return uri && /^https?:\/\//i.test(uri) ? uri : undefined;
}

function block(content: Block): HTMLElement {
  switch (content.type) {
    case "text":
      return el("pre", { className: "text" }, content.text ?? "");
    case "image":
      return el("img", { src: `data:${content.mimeType};base64,${content.data}`, alt: "image from the tool" });
    case "audio":
      return el("audio", { controls: true, src: `data:${content.mimeType};base64,${content.data}` });
    case "resource_link": {
      const href = safeHref(content.uri);
      const label = `${content.name ?? ""} ${content.uri ?? ""}`.trim();
      return el(
        "p",
        { className: "resource-link" },
        "Resource link: ",
        href ? el("a", { href, rel: "noopener noreferrer", target: "_blank" }, label) : el("code", {}, label),
      );
    }
    case "resource":
      return el(
        "div",
        { className: "resource" },
        el("code", {}, content.resource?.uri ?? ""),
        el("pre", {}, content.resource?.text ?? "(binary)"),
      );
    default:
      return el("pre", {}, json(content));
  }
}

export function renderResult(
  target: HTMLElement,
  result: { content?: Block[]; structuredContent?: unknown; isError?: boolean },
): void {
  target.replaceChildren(
    el("p", { className: result.isError ? "error" : "ok" }, result.isError ? "The tool reported an error:" : "Result:"),
    ...(result.content ?? []).map(block),
    ...(result.structuredContent === undefined
      ? []
      : [
          el(
            "details",
            { open: true },
            el("summary", {}, "Structured content"),
            el("pre", { className: "structured" }, json(result.structuredContent)),
          ),
        ]),
  );
}

export function renderError(target: HTMLElement, error: unknown): void {
  const code = (error as { code?: unknown }).code;
  target.replaceChildren(
    el(
      "p",
      { className: "error", role: "alert" },
      `Error${typeof code === "number" ? ` ${code}` : ""}: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
}
