/**
 * Prompts and resource templates tried from the page: a prompt's arguments and a template's variables
 * get a form (the same schema form as a tool's, from a schema built here), then `prompts/get` shows the
 * prompt's messages and `resources/read` of the expanded URI (the client library's UriTemplate) its contents.
 */
import {
  UriTemplate,
  type Client,
  type Prompt,
  type ResourceTemplateType as ResourceTemplate,
} from "@modelcontextprotocol/client";
import { byId, el, json } from "./dom.ts";
import { schemaForm } from "./schema-form.ts";

type ReadContents = Awaited<ReturnType<Client["readResource"]>>["contents"];

/** A resource's contents as text: text shown as is, binary named by its type. */
export function showContents(target: HTMLElement, contents: ReadContents): void {
  target.textContent = contents.map((c) => ("text" in c ? c.text : `(${c.mimeType ?? "binary"})`)).join("\n");
}

function showFailure(target: HTMLElement, error: unknown): void {
  target.replaceChildren(el("span", { className: "error", role: "alert" }, String(error)));
}

/** The detail box (#catalog-detail) with a heading and a form; the answer goes to #read-result. */
function showDetail(title: string, description: string | undefined, form: HTMLFormElement): void {
  const detail = byId("catalog-detail");
  detail.replaceChildren(el("h3", { id: "catalog-name" }, title), el("p", {}, description ?? ""), form);
  detail.hidden = false;
  byId("read-result").replaceChildren();
  form.querySelector<HTMLElement>("[data-arg], button[type='submit']")?.focus();
}

/** A prompt's argument form; submitted, `prompts/get` and its messages (role: text, or the block as JSON). */
export function showPrompt(client: Client, prompt: Prompt): void {
  const args = prompt.arguments ?? [];
  const schema = {
    type: "object",
    properties: Object.fromEntries(
      args.map((arg) => [arg.name, { type: "string", ...(arg.description ? { description: arg.description } : {}) }]),
    ),
    required: args.filter((arg) => arg.required).map((arg) => arg.name),
  };
  const { form, read } = schemaForm(schema, `Get ${prompt.name}`, "prompt-");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const values = read();
    if (!values) return;
    const target = byId("read-result");
    client
      .getPrompt({ name: prompt.name, arguments: values as Record<string, string> })
      .then((result) => {
        const items = result.messages.map((message) => {
          const content = message.content as { type: string; text?: string };
          return el(
            "li",
            { "data-role": message.role },
            `${message.role}: ${content.type === "text" ? content.text : json(content)}`,
          );
        });
        target.replaceChildren(
          result.description ? el("p", {}, result.description) : "",
          el("ol", { id: "prompt-messages" }, ...items),
        );
      })
      .catch((error: unknown) => showFailure(target, error));
  });
  showDetail(prompt.name, prompt.description, form);
}

/** A template's variable form; submitted, the URI expanded and read. */
export function showTemplate(client: Client, template: ResourceTemplate): void {
  const uriTemplate = new UriTemplate(template.uriTemplate);
  const names = uriTemplate.variableNames;
  const schema = {
    type: "object",
    properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])),
    required: names,
  };
  const { form, read } = schemaForm(schema, `Read ${template.name}`, "template-");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const values = read();
    if (!values) return;
    const uri = uriTemplate.expand(values as Record<string, string>);
    const target = byId("read-result");
    client
      .readResource({ uri })
      .then((read) => showContents(target, read.contents))
      .catch((error: unknown) => showFailure(target, error));
  });
  showDetail(template.uriTemplate, template.description ?? template.name, form);
}
