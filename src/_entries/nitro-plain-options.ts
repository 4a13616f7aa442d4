/**
 * The Nitro module's options given in the config (the key `mcp`, each `mcp.handlers.<name>`),
 * checked to be plain data (the generated handler module carries them as JSON) with numbers that
 * are valid options.
 */
import { handlerNumbers } from "../request/numeric-options.ts";

/**
 * The config key's options, as JSON the generated module carries: code (a function, a store, a
 * class instance) cannot be written there and belongs in `mcp/config.ts`, which the error says.
 */
export function plainOptions(options: Record<string, unknown>, key: string): Record<string, unknown> {
  const check = (value: unknown, path: string): void => {
    if (value === null || ["string", "number", "boolean", "undefined"].includes(typeof value)) return;
    if (Array.isArray(value)) return value.forEach((item, index) => check(item, `${path}[${index}]`));
    const prototype = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
    if (prototype === Object.prototype || prototype === null) {
      for (const [key, item] of Object.entries(value as object)) check(item, `${path}.${key}`);
      return;
    }
    throw new Error(
      `mcp-h3: the config key's ${path} is code (${typeof value}); give it in ${codeFile(key)}, whose default export is merged over the config key`,
    );
  };
  check(options, key);
  // Its numbers too, now rather than when the server first answers: `Number(process.env.X)` of an
  // unset variable is NaN, and the build is where the one who wrote it is looking.
  handlerNumbers(options, `mcp-h3: the config key's ${key}.`);
  return options;
}

/** Where the code options of the endpoint whose config key is `key` go. */
function codeFile(key: string): string {
  return key === "mcp" ? "mcp/config.ts" : `mcp/handlers/${key.slice("mcp.handlers.".length)}/config.ts`;
}
