/** The fuzzer's randomness: mulberry32, seeded, so that any message can be made again from (seed, index). */

/** A source of numbers in [0, 1). */
export type Random = () => number;

/** mulberry32: a small 32-bit PRNG, plenty for choosing mutations. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The generator of message `index` of a run: independent of the order in which workers take messages. */
export function randomFor(seed: number, index: number): Random {
  return mulberry32((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
}

/** An integer in [min, max]. */
export function int(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One element of a non-empty list. */
export function pick<T>(random: Random, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** True with probability `p`. */
export function chance(random: Random, p: number): boolean {
  return random() < p;
}
