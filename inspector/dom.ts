/** A small DOM builder: every value is set as text or a property, never parsed as HTML (servers' data is hostile). */
type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string | boolean | number>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith("data-") || name.startsWith("aria-") || name === "role" || name === "for") {
      node.setAttribute(name, String(value));
    } else (node as unknown as Record<string, unknown>)[name] = value;
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node as T;
}

/** Pretty JSON for display. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
