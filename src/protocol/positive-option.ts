/** The check of a numeric option that must be positive: a cap, a duration, a rate. */

/** How {@link positiveOption} reads one option. */
export interface PositiveRule {
  /** The value when the option is not given; without one, the option must be given. */
  fallback?: number;
  /** Whether a fraction is a valid value (a rate per second); else it must be a whole number (a count, milliseconds). */
  fraction?: boolean;
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
export function positiveOption(name: string, value: number | undefined, rule: PositiveRule = {}): number {
  if (value === undefined && rule.fallback !== undefined) return rule.fallback;
  const valid = rule.fraction ? Number.isFinite(value) : Number.isSafeInteger(value);
  if (!valid || (value as number) <= 0) {
    throw new RangeError(
      `${name} must be a positive ${rule.fraction ? "number" : "whole number"}, not ${String(value)}`,
    );
  }
  return value as number;
}
