/**
 * The table of test/numeric-options.test.ts (and of the Durable stores' rows in
 * test/cloudflare-options.test.ts): the values every numeric option is given, and what each should
 * do with it by the option's kind (0 allowed, `Infinity` allowed, a fraction allowed).
 */

/** What an option accepts besides a positive whole number. */
export interface OptionKind {
  /** 0 means something (no grace, no keep-alive, a cap refusing every one). */
  zero?: boolean;
  /** `Infinity` lifts the cap. */
  infinite?: boolean;
  /** A fraction is a valid value (a rate). */
  fraction?: boolean;
}

/** One numeric option: its path as the error names it, its kind, and a value it takes. */
export interface NumericOption extends OptionKind {
  path: string;
  /** A valid value (default 1000). */
  valid?: number;
}

/** The values given to every option, with a label for the test's name. */
export const VALUES: readonly { label: string; value: unknown }[] = [
  { label: "NaN", value: Number.NaN },
  { label: "a string", value: "30 min" },
  { label: "0", value: 0 },
  { label: "a negative", value: -1 },
  { label: "Infinity", value: Infinity },
  { label: "a fraction", value: 1.5 },
];

/** Whether an option of `kind` takes `value`. */
export function accepts(kind: OptionKind, value: unknown): boolean {
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) return false;
  if (value === 0) return kind.zero === true;
  if (value === Infinity) return kind.infinite === true;
  return Number.isInteger(value) || kind.fraction === true;
}

/** The error an option named `name` must give for `value`: the name, then the value as given. */
export function refusal(name: string, value: unknown): RegExp {
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  return new RegExp(`^${escape(name)} must be .*, not ${escape(shown)}$`);
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `{ a: { b: value } }` for the path `"a.b"`. */
export function nested(path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split(".");
  return { [head!]: rest.length === 0 ? value : nested(rest.join("."), value) };
}
