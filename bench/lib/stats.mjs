/** Small statistics helpers. */
export function median(values) {
  const sorted = values.filter((v) => typeof v === "number" && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summary(values) {
  const finite = values.filter((v) => typeof v === "number" && Number.isFinite(v));
  if (finite.length === 0) return { median: null, min: null, max: null, runs: values };
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), runs: values };
}

/** Percentile of an already sorted typed array (nearest rank). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function round(value, digits = 2) {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Quantile `q` (0..1) of finite values, linear between the two nearest ranks (the median at q = 0.5). */
export function quantile(values, q) {
  const sorted = values.filter((v) => typeof v === "number" && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/**
 * The median of per-pair ratios and their spread: quartiles (the interquartile range holds the
 * middle half of the pairs), min, max and how many pairs there were (null values are left out).
 */
export function ratioSpread(ratios) {
  const finite = ratios.filter((v) => typeof v === "number" && Number.isFinite(v));
  if (finite.length === 0) return { median: null, q1: null, q3: null, min: null, max: null, pairs: 0 };
  return {
    median: median(finite),
    q1: quantile(finite, 0.25),
    q3: quantile(finite, 0.75),
    min: Math.min(...finite),
    max: Math.max(...finite),
    pairs: finite.length,
  };
}

/** The key a pair is stored under in `scenario.pairs`. */
export const pairKey = (a, b) => `${a}/${b}`;

/** Per-pair ratios a/b of one field of the windows (null where either side has none). */
export function pairRatios(pair, field = "rps") {
  return (pair?.windows ?? []).map(({ a, b }) => {
    const x = a?.[field];
    const y = b?.[field];
    return typeof x === "number" && typeof y === "number" && y > 0 ? x / y : null;
  });
}

/** The median of a pair's per-window ratios and their spread (`ratioSpread`). */
export function pairSpread(pair, field = "rps") {
  return ratioSpread(pairRatios(pair, field));
}
