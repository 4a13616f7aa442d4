/** Reading the environment on any host: Node, Bun, Deno (with or without `--allow-env`), Workers. */

/** A variable of the environment, or undefined where there is none or reading it is not allowed. */
export function readEnvironment(name: string): string | undefined {
  try {
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
    return typeof value === "string" ? value : undefined;
  } catch {
    // Deno without --allow-env throws on the read: the variable counts as unset.
    return undefined;
  }
}
