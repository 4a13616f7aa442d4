/**
 * The one check of every numeric option (a cap, a duration, a rate) of every store and entry: a
 * value that is not a number of the kind the option takes is the developer's mistake, reported
 * where it is given, naming the option. `Number(env.X)` of an unset variable is `NaN`, and `NaN`
 * passes every `<` and `>`: unchecked, it made a Durable Object's `setAlarm(NaN)` fail every
 * request, and a cap of `NaN` or `"30 min"` bound nothing.
 */

/** How {@link positiveOption} and {@link nonNegativeOption} read one option. */
export interface PositiveRule {
  /** The value when the option is not given; without one, the option must be given. */
  fallback?: number;
  /** Whether a fraction is a valid value (a rate per second); else it must be a whole number (a count, milliseconds). */
  fraction?: boolean;
  /** Whether `Infinity` is a valid value (a cap the caller lifts on purpose). */
  infinite?: boolean;
}

/**
 * A positive option as given, or the rule's fallback when it is not given. Anything else (zero, a
 * negative, `NaN`, an infinity, a fraction where a whole number is needed, not a number at all) is
 * the developer's mistake, reported as a `RangeError` naming the option when the handler or store is
 * made, rather than replaced by a default nobody asked for.
 *
 * @example
 * positiveOption("MemoryTaskStore: maxTasks", options.maxTasks, { fallback: 10_000 }); // 10_000 when not given
 * positiveOption("refillPerSecond", 0.5, { fraction: true }); // 0.5
 * positiveOption("maxTasks", 0, { fallback: 10_000 }); // throws RangeError
 */
export function positiveOption(name: string, value: unknown, rule: PositiveRule = {}): number {
  return checkedOption(name, value, rule, false);
}

/**
 * {@link positiveOption} for an option whose 0 means something (no grace, no keep-alive, a cap
 * that refuses every one): 0 or more.
 *
 * @example
 * nonNegativeOption("MemorySessionStore handshakeGraceMs", 0, { fallback: 2000 }); // 0
 * nonNegativeOption("keepAliveMs", -1); // throws RangeError
 */
export function nonNegativeOption(name: string, value: unknown, rule: PositiveRule = {}): number {
  return checkedOption(name, value, rule, true);
}

function checkedOption(name: string, value: unknown, rule: PositiveRule, zero: boolean): number {
  if (value === undefined && rule.fallback !== undefined) return rule.fallback;
  const valid =
    typeof value === "number" &&
    (rule.infinite && value === Infinity
      ? true
      : rule.fraction
        ? Number.isFinite(value)
        : Number.isSafeInteger(value)) &&
    (zero ? value >= 0 : value > 0);
  if (valid) return value;
  const kind = rule.fraction ? "number" : "whole number";
  const wanted = zero ? `a ${kind}, 0 or more` : `a positive ${kind}`;
  throw new RangeError(`${name} must be ${wanted}${rule.infinite ? " (or Infinity)" : ""}, not ${shown(value)}`);
}

/** The value as the message shows it: a string quoted, so that `"30 min"` reads as the string it is. */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
