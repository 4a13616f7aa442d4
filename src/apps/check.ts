/**
 * Checks of an app's options, once, when it is defined: a mistake in a view's URI or its CSP is
 * the author's, and would otherwise show up as a blank frame in some host, with no error anywhere.
 */
import { isCspOrigin } from "../index.ts";
import type { McpAppCsp, McpAppPermissions, McpAppViewMeta, McpAppVisibility } from "../types/apps.ts";

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSIONS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;
const VISIBILITIES: readonly string[] = ["model", "app"];
const CSP_SCHEMES = new Set(["http:", "https:", "ws:", "wss:"]);
/** A bare host name: what Claude's `domain` looks like (`{hash}.claudemcpcontent.com`). */
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

function fail(label: string, message: string): never {
  throw new TypeError(`mcp-h3: ${label}: ${message}`);
}

/** Refuses a key of `options` that is not in `known` (a misspelt one would be dropped without a word). */
export function checkKeys(options: object, known: readonly string[], where: string, label: string): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) fail(label, `${where}${key} is unknown (use ${known.join(", ")})`);
  }
}

/**
 * Checks a view URI: a `ui://` URI with an authority, as hosts fetch it (`resources/read`).
 *
 * @example
 * checkViewUri("ui://weather/view.html", 'App "weather"'); // ok
 * checkViewUri("https://x/view.html", 'App "weather"'); // throws: must start with "ui://"
 */
export function checkViewUri(uri: unknown, label: string): string {
  if (typeof uri !== "string" || !uri.startsWith("ui://")) {
    fail(label, `the view's uri must start with "ui://" (got ${JSON.stringify(uri)})`);
  }
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    fail(label, `the view's uri ${JSON.stringify(uri)} is not a valid URI`);
  }
  if (parsed.host === "" || /\s/.test(uri))
    fail(label, `the view's uri ${JSON.stringify(uri)} needs a name after "ui://"`);
  return uri;
}

/**
 * The form a URL parser gives `value` (lower case, no default port, IPv4 numbers in full), keeping
 * its `*.` wildcard label and `:*` port, which a URL cannot hold; undefined when it does not parse.
 */
function canonicalOrigin(value: string): string | undefined {
  const wildcard = value.includes("://*.");
  const anyPort = value.endsWith(":*");
  let parsed: URL;
  try {
    parsed = new URL((anyPort ? value.slice(0, -2) : value).replace("://*.", "://wildcard."));
  } catch {
    return undefined;
  }
  if (!CSP_SCHEMES.has(parsed.protocol)) return undefined;
  const origin = wildcard ? parsed.origin.replace("://wildcard.", "://*.") : parsed.origin;
  return anyPort ? `${origin}:*` : origin;
}

/**
 * One origin (a CSP entry, or the view's `domain`): what a CSP source expression for an origin can
 * be ({@link isCspOrigin}: scheme http, https, ws or wss; a host, optionally starting with a `*.`
 * wildcard label; an optional port, or `:*` in a CSP list), written as a URL parser writes it
 * (lower case, no default port). Anything else is refused: hosts paste these entries into a CSP
 * header, where `;`, `,`, a space or a quote would add a directive, a policy, a source or a keyword.
 */
function checkOrigin(value: unknown, where: string, label: string, anyPort: boolean): string {
  if (typeof value !== "string") fail(label, `${where} must hold origins as strings (got ${JSON.stringify(value)})`);
  const grammatical = isCspOrigin(value) && (anyPort || !value.endsWith(":*"));
  const canonical = canonicalOrigin(value);
  if (!grammatical || canonical !== value) {
    // Suggest the origin the author may have meant (a path dropped, lower case), only if it is one itself.
    const hint = canonical !== undefined && isCspOrigin(canonical) ? ` (write ${JSON.stringify(canonical)})` : "";
    fail(
      label,
      `${where}: ${JSON.stringify(value)} is not an origin such as "https://api.example.com", "https://*.example.com" or "wss://live.example.com:8443"${hint}`,
    );
  }
  return value;
}

/** Checks `csp` and returns a copy holding only the lists that were given. */
export function checkCsp(csp: unknown, label: string): McpAppCsp | undefined {
  if (csp === undefined) return undefined;
  if (csp === null || typeof csp !== "object" || Array.isArray(csp)) fail(label, "csp must be an object");
  const copy: McpAppCsp = {};
  for (const key of Object.keys(csp)) {
    if (!(CSP_KEYS as readonly string[]).includes(key))
      fail(label, `csp.${key} is unknown (use ${CSP_KEYS.join(", ")})`);
    const list = (csp as Record<string, unknown>)[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) fail(label, `csp.${key} must be an array of origins`);
    copy[key as (typeof CSP_KEYS)[number]] = list.map((value) => checkOrigin(value, `csp.${key}`, label, true));
  }
  return copy;
}

/** Checks `permissions` and returns them as the wire writes them (`{ camera: {} }`). */
export function checkPermissions(
  permissions: unknown,
  label: string,
): Record<string, Record<string, never>> | undefined {
  if (permissions === undefined) return undefined;
  if (permissions === null || typeof permissions !== "object" || Array.isArray(permissions)) {
    fail(label, "permissions must be an object such as { camera: true }");
  }
  const written: Record<string, Record<string, never>> = {};
  for (const [key, value] of Object.entries(permissions as McpAppPermissions)) {
    if (!(PERMISSIONS as readonly string[]).includes(key)) {
      fail(label, `permissions.${key} is unknown (use ${PERMISSIONS.join(", ")})`);
    }
    if (value === undefined) continue;
    const empty =
      value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;
    if (value !== true && !empty) fail(label, `permissions.${key} must be true or {}`);
    written[key] = {};
  }
  return written;
}

/** Checks `domain`: a bare host name (Claude's format) or an origin (ChatGPT's). */
export function checkDomain(domain: unknown, label: string): string | undefined {
  if (domain === undefined) return undefined;
  if (typeof domain !== "string") fail(label, "domain must be a string");
  if (domain.includes("://")) return checkOrigin(domain, "domain", label, false);
  if (!HOST_NAME.test(domain)) {
    fail(label, `domain ${JSON.stringify(domain)} is neither a host name nor an origin (the format is the host's)`);
  }
  return domain;
}

/** Checks the view metadata as a whole (`csp`, `permissions`, `domain`, `prefersBorder`). */
export function checkViewMeta(meta: McpAppViewMeta, label: string): McpAppViewMeta {
  const checked: McpAppViewMeta = {};
  const csp = checkCsp(meta.csp, label);
  if (csp) checked.csp = csp;
  const permissions = checkPermissions(meta.permissions, label);
  if (permissions) checked.permissions = permissions;
  const domain = checkDomain(meta.domain, label);
  if (domain !== undefined) checked.domain = domain;
  if (meta.prefersBorder !== undefined) {
    if (typeof meta.prefersBorder !== "boolean") fail(label, "prefersBorder must be a boolean");
    checked.prefersBorder = meta.prefersBorder;
  }
  return checked;
}

/** Checks `visibility`: a non-empty list of "model" and "app", each once. */
export function checkVisibility(visibility: unknown, label: string): McpAppVisibility[] | undefined {
  if (visibility === undefined) return undefined;
  if (
    !Array.isArray(visibility) ||
    visibility.length === 0 ||
    !visibility.every((value) => VISIBILITIES.includes(value as string)) ||
    new Set(visibility).size !== visibility.length
  ) {
    fail(label, `visibility must list "model" and/or "app", each once (got ${JSON.stringify(visibility)})`);
  }
  return [...visibility] as McpAppVisibility[];
}

/**
 * Checks an `openai` option: a boolean, or an object of strings under `keys`; `false` when the
 * ChatGPT keys are to be left out, else the strings to write (`{}` for `true` or nothing).
 */
export function checkOpenAi(openai: unknown, keys: readonly string[], label: string): Record<string, string> | false {
  if (openai === undefined || openai === true) return {};
  if (openai === false) return false;
  if (openai === null || typeof openai !== "object" || Array.isArray(openai)) {
    fail(label, `openai must be a boolean or { ${keys.join(", ")} }`);
  }
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(openai)) {
    if (!keys.includes(key)) fail(label, `openai.${key} is unknown (use ${keys.join(", ")})`);
    if (value === undefined) continue;
    if (typeof value !== "string") fail(label, `openai.${key} must be a string`);
    strings[key] = value;
  }
  return strings;
}
