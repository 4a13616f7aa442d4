/**
 * A workerd capnp config for one Worker module with Durable Object classes, their storage on a
 * local directory (one SQLite file per object) — what `wrangler dev` runs, written out so that
 * workerd alone serves it, offline. Used by scripts/serve-cloudflare.mjs (from the example's
 * wrangler.jsonc) and by the tests' harness (test/helpers/workerd-durable.ts).
 */

/**
 * @typedef {object} DurableClass
 * @property {string} className the class the module exports
 * @property {string} binding the name the Worker reaches its namespace by (`env.<binding>`)
 * @property {boolean} [enableSql] a SQLite-backed class (`new_sqlite_classes`)
 */

/**
 * @param {object} worker
 * @param {string} worker.module the bundled module's file, relative to the config
 * @param {DurableClass[]} worker.classes
 * @param {string} worker.storageDir an existing directory for the objects' storage
 * @param {string} worker.address `host:port` of the HTTP socket
 * @param {string} worker.compatibilityDate
 * @param {string[]} [worker.compatibilityFlags]
 * @returns {string}
 */
export function workerdConfig({ module, classes, storageDir, address, compatibilityDate, compatibilityFlags = [] }) {
  const bindings = classes.map((c) => `(name = ${q(c.binding)}, durableObjectNamespace = ${q(c.className)})`);
  const namespaces = classes.map(
    (c) => `(className = ${q(c.className)}, uniqueKey = ${q(c.className)}, enableSql = ${c.enableSql === true})`,
  );
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "do-storage", disk = (path = ${q(storageDir)}, writable = true)),
  ],
  sockets = [(name = "http", address = ${q(address)}, http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed ${q(module)})],
  compatibilityDate = ${q(compatibilityDate)},
  compatibilityFlags = [${compatibilityFlags.map(q).join(", ")}],
  bindings = [${bindings.join(", ")}],
  durableObjectNamespaces = [${namespaces.join(", ")}],
  durableObjectStorage = (localDisk = "do-storage"),
);
`;
}

/** A capnp string literal (the same escapes as JSON). */
const q = (text) => JSON.stringify(String(text));

/**
 * The Durable Object classes a wrangler config declares: its bindings, SQLite-backed when a
 * migration names the class in `new_sqlite_classes`.
 *
 * @param {{ durable_objects?: { bindings?: { name: string, class_name: string }[] }, migrations?: { new_sqlite_classes?: string[] }[] }} wrangler
 * @returns {DurableClass[]}
 */
export function durableClassesOf(wrangler) {
  const sqlite = new Set((wrangler.migrations ?? []).flatMap((migration) => migration.new_sqlite_classes ?? []));
  return (wrangler.durable_objects?.bindings ?? []).map((binding) => ({
    className: binding.class_name,
    binding: binding.name,
    enableSql: sqlite.has(binding.class_name),
  }));
}

/**
 * JSONC (JSON with `//` and `/* *\/` comments and trailing commas, as wrangler.jsonc is written)
 * parsed in one pass over the text.
 *
 * @param {string} text
 * @returns {unknown}
 */
export function parseJsonc(text) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else {
      if (char === "}" || char === "]") out = withoutTrailingComma(out);
      out += char;
    }
  }
  return JSON.parse(out);
}

/** `text` without a comma that only blanks follow (the last one before a closing bracket). */
function withoutTrailingComma(text) {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  return text[end - 1] === "," ? text.slice(0, end - 1) + text.slice(end) : text;
}
