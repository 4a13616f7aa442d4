/**
 * A form generated from a tool's input schema: one field per top-level property (text, number,
 * checkbox, select for enums, a JSON text area for anything else), checked against the whole
 * schema with @cfworker/json-schema (the validator the 2.x client uses in browsers and Workers)
 * before the call; each error is shown next to its field.
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { el } from "./dom.ts";

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  title?: string;
  default?: unknown;
}

export interface SchemaForm {
  form: HTMLFormElement;
  /** The arguments, or undefined after showing the validation errors. */
  read(): Record<string, unknown> | undefined;
}

function kindOf(property: PropertySchema): string {
  if (property.enum) return "enum";
  const type = Array.isArray(property.type) ? property.type.find((t) => t !== "null") : property.type;
  return type ?? "json";
}

function fieldFor(name: string, property: PropertySchema, required: boolean, prefix: string): HTMLElement {
  const id = `${prefix}${name}`;
  const kind = kindOf(property);
  let input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  if (kind === "boolean") input = el("input", { id, type: "checkbox", checked: property.default === true });
  else if (kind === "enum") {
    input = el("select", { id }, required ? null : el("option", { value: "" }, "(none)"));
    for (const value of property.enum ?? [])
      input.append(el("option", { value: JSON.stringify(value) }, String(value)));
  } else if (kind === "number" || kind === "integer") {
    input = el("input", { id, type: "number", step: kind === "integer" ? "1" : "any" });
    if (typeof property.default === "number") input.value = String(property.default);
  } else if (kind === "string") {
    input = el("input", { id, type: "text" });
    if (typeof property.default === "string") input.value = property.default;
  } else {
    input = el("textarea", { id, rows: 3, placeholder: "JSON" });
    if (property.default !== undefined) input.value = JSON.stringify(property.default);
  }
  input.dataset.arg = name;
  input.dataset.kind = kind;
  const label = `${property.title ?? name}${required ? " *" : ""}`;
  return el(
    "div",
    { className: "field" },
    el("label", { for: id }, label),
    input,
    property.description ? el("small", {}, property.description) : null,
    el("span", { className: "error", id: `${id}-error`, role: "alert" }),
  );
}

/** The value of one field, or undefined when left empty (so an optional argument is omitted). */
function valueOf(input: HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement): unknown {
  const kind = input.dataset.kind;
  if (kind === "boolean") return input.checked;
  if (input.value === "") return undefined;
  if (kind === "number" || kind === "integer") return Number(input.value);
  if (kind === "string") return input.value;
  try {
    return JSON.parse(input.value);
  } catch {
    return input.value; // the validator reports the type mismatch
  }
}

/** `prefix` starts every id of the form (its fields are `${prefix}${name}`, errors `${prefix}${name}-error`). */
export function schemaForm(schema: Record<string, unknown>, submitLabel: string, prefix = "arg-"): SchemaForm {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const form = el("form", { noValidate: true });
  for (const [name, property] of Object.entries(properties))
    form.append(fieldFor(name, property, required.has(name), prefix));
  const summary = el("p", { className: "error", role: "alert", id: `${prefix}form-errors` });
  form.append(summary, el("button", { type: "submit" }, submitLabel));
  // A field's error goes as soon as it is edited; the rest stay until the next submit.
  form.addEventListener("input", (event) => {
    const input = (event.target as HTMLElement).closest<HTMLElement>("[data-arg]");
    if (!input?.getAttribute("aria-invalid")) return;
    input.removeAttribute("aria-invalid");
    form.querySelector(`#${prefix}${CSS.escape(input.dataset.arg!)}-error`)!.textContent = "";
  });
  const validator = new Validator(schema as Schema, "2020-12", false);

  const read = (): Record<string, unknown> | undefined => {
    const args: Record<string, unknown> = {};
    const inputs = form.querySelectorAll<HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement>("[data-arg]");
    for (const input of inputs) {
      const value = valueOf(input);
      if (value !== undefined) args[input.dataset.arg!] = value;
      input.removeAttribute("aria-invalid");
      form.querySelector(`#${prefix}${CSS.escape(input.dataset.arg!)}-error`)!.textContent = "";
    }
    summary.textContent = "";
    const outcome = validator.validate(args);
    if (outcome.valid) return args;
    // The validator reports one wrong field several times ("-1 is less than 0" at "#/seconds", then the parent's
    // 'Property "seconds" does not match schema' at "#"): the summary counts fields, and names what no field explains.
    const fields = new Set<string>();
    const loose: string[] = [];
    // Errors located at a field first: they say more than their parent's summary.
    const located = (error: { instanceLocation: string }) => (error.instanceLocation.startsWith("#/") ? 0 : 1);
    for (const error of [...outcome.errors].sort((a, b) => located(a) - located(b))) {
      // "#/to" names the field; a missing required property is reported at "#" with its name in the message.
      const field = /^#\/([^/]+)/.exec(error.instanceLocation)?.[1] ?? /"([^"]+)"/.exec(error.error)?.[1];
      const input = field ? form.querySelector<HTMLElement>(`[data-arg="${CSS.escape(field)}"]`) : null;
      if (input) {
        fields.add(field!);
        input.setAttribute("aria-invalid", "true");
        const slot = form.querySelector(`#${prefix}${CSS.escape(field!)}-error`)!;
        slot.textContent ||= error.error;
      } else loose.push(error.error);
    }
    const count = fields.size === 1 ? "1 field is not valid" : `${fields.size} fields are not valid`;
    summary.textContent =
      fields.size > 0 ? `Not sent: ${count}.` : `Not sent: ${loose[0] ?? "the arguments are not valid"}.`;
    form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    return undefined;
  };
  return { form, read };
}
