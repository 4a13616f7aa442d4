/**
 * The benchmark plots of the docs site: SVG charts drawn from bench/results.json into docs/public/bench/.
 * Run by `npm run bench` after a full run (bench/run.mjs calls writeBenchPlots), or by hand:
 *
 *   node scripts/plot-bench.mjs            # reads bench/results.json, writes docs/public/bench/*.svg
 *
 * A chart whose scenario is missing from the results (a run with --only) is left as it was. No dependencies:
 * the charts are plain SVG text, so they are the same on every machine for the same results.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const OUT_DIR = fileURLToPath(new URL("../docs/public/bench/", import.meta.url));
const RESULTS = fileURLToPath(new URL("../bench/results.json", import.meta.url));

const WIDTH = 720;
const LABEL_WIDTH = 230;
const ROW = 30;
const TOP = 48;
const BOTTOM = 52;
const PLOT_WIDTH = WIDTH - LABEL_WIDTH - 90;
const OURS = "#3451b2";
const OTHERS = "#8e96aa";

/** @param {string} text */
function escape(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** @param {number} value */
function format(value) {
  if (value === 0) return "0";
  if (value >= 100) return Math.round(value).toLocaleString("en-US");
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(value >= 1 ? 2 : 3);
}

/**
 * A "nice" axis end at or above `max`: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten.
 * @param {number} max
 */
function niceCeiling(max) {
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].map((step) => step * power).find((end) => end >= max) ?? 10 * power;
}

/**
 * @param {string} title
 * @param {number} rows
 * @param {string} body
 * @param {string} footer
 */
function frame(title, rows, body, footer) {
  const height = TOP + rows * ROW + BOTTOM;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" font-family="system-ui, sans-serif" font-size="13" role="img" aria-label="${escape(title)}">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="26" font-size="15" font-weight="600" fill="#1f2328">${escape(title)}</text>`,
    body,
    `<text x="16" y="${height - 12}" font-size="11" fill="#57606a">${escape(footer)}</text>`,
    `</svg>`,
    "",
  ].join("\n");
}

/**
 * Horizontal bars, one per system: the median, with a line from the lowest to the highest repetition.
 * @param {{ title: string; unit: string; footer: string; rows: { label: string; median: number; min?: number; max?: number; ours: boolean }[] }} chart
 */
export function barChart({ title, unit, footer, rows }) {
  const end = niceCeiling(Math.max(...rows.map((r) => r.max ?? r.median)));
  const x = (/** @type {number} */ v) => LABEL_WIDTH + (v / end) * PLOT_WIDTH;
  const parts = [];
  for (let tick = 0; tick <= 4; tick++) {
    const value = (end * tick) / 4;
    const at = x(value);
    parts.push(
      `<line x1="${at}" y1="${TOP - 6}" x2="${at}" y2="${TOP + rows.length * ROW}" stroke="#d0d7de" stroke-width="1"/>`,
      `<text x="${at}" y="${TOP + rows.length * ROW + 16}" text-anchor="middle" font-size="11" fill="#57606a">${escape(format(value))}</text>`,
    );
  }
  rows.forEach((row, i) => {
    const y = TOP + i * ROW;
    const colour = row.ours ? OURS : OTHERS;
    parts.push(
      `<text x="${LABEL_WIDTH - 10}" y="${y + 19}" text-anchor="end" fill="#1f2328"${row.ours ? ' font-weight="600"' : ""}>${escape(row.label)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y + 6}" width="${Math.max(1, x(row.median) - LABEL_WIDTH)}" height="${ROW - 12}" fill="${colour}" rx="2"/>`,
    );
    if (row.min !== undefined && row.max !== undefined) {
      parts.push(
        `<line x1="${x(row.min)}" y1="${y + ROW / 2}" x2="${x(row.max)}" y2="${y + ROW / 2}" stroke="#1f2328" stroke-width="1.5"/>`,
      );
    }
    parts.push(
      `<text x="${x(Math.max(row.median, row.max ?? 0)) + 6}" y="${y + 19}" font-size="12" fill="#1f2328">${escape(`${format(row.median)} ${unit}`)}</text>`,
    );
  });
  return frame(title, rows.length, parts.join("\n"), footer);
}

/**
 * Paired ratios against their targets: per figure, the median (dot), the interquartile range (box), the
 * lowest and highest pair (line) and the target (red tick), each row on its own scale from 0.
 * @param {{ title: string; footer: string; rows: { label: string; spread: { median: number; q1: number; q3: number; min: number; max: number; pairs: number }; target?: { value: number; atLeast: boolean } }[] }} chart
 */
export function ratioChart({ title, footer, rows }) {
  const parts = [];
  rows.forEach((row, i) => {
    const y = TOP + i * ROW;
    const s = row.spread;
    const end = niceCeiling(Math.max(s.max, row.target?.value ?? 0) * 1.05);
    const x = (/** @type {number} */ v) => LABEL_WIDTH + (v / end) * PLOT_WIDTH;
    const met =
      row.target === undefined || (row.target.atLeast ? s.median >= row.target.value : s.median <= row.target.value);
    parts.push(
      `<text x="${LABEL_WIDTH - 10}" y="${y + 19}" text-anchor="end" fill="#1f2328">${escape(row.label)}</text>`,
      `<line x1="${LABEL_WIDTH}" y1="${y + ROW / 2}" x2="${LABEL_WIDTH + PLOT_WIDTH}" y2="${y + ROW / 2}" stroke="#eaeef2" stroke-width="1"/>`,
      `<line x1="${x(s.min)}" y1="${y + ROW / 2}" x2="${x(s.max)}" y2="${y + ROW / 2}" stroke="#57606a" stroke-width="1.5"/>`,
      `<rect x="${x(s.q1)}" y="${y + 8}" width="${Math.max(1, x(s.q3) - x(s.q1))}" height="${ROW - 16}" fill="#c8d1f5" stroke="${OURS}"/>`,
      `<circle cx="${x(s.median)}" cy="${y + ROW / 2}" r="4" fill="${OURS}"/>`,
    );
    if (row.target) {
      parts.push(
        `<line x1="${x(row.target.value)}" y1="${y + 4}" x2="${x(row.target.value)}" y2="${y + ROW - 4}" stroke="#cf222e" stroke-width="2"/>`,
      );
    }
    const verdict = row.target
      ? ` (target ${row.target.atLeast ? "≥" : "≤"} ${row.target.value}${met ? "" : ", missed"})`
      : "";
    parts.push(
      `<text x="${LABEL_WIDTH + PLOT_WIDTH + 6}" y="${y + 19}" font-size="12" fill="${met ? "#1f2328" : "#cf222e"}">${escape(format(s.median))}</text>`,
      `<title>${escape(`${row.label}: median ${s.median}, IQR ${s.q1}–${s.q3}, ${s.min}–${s.max} over ${s.pairs} pairs${verdict}`)}</title>`,
    );
  });
  return frame(title, rows.length, parts.join("\n"), footer);
}

const SYSTEM_LABELS = {
  "bare-h3": "bare h3 v2 route (no MCP)",
  "mcp-h3": "mcp-h3",
  "mcp-h3-auth": "mcp-h3, auth on",
  "mcp-h3+zod": "mcp-h3 with zod",
  "mcp-h3-redis": "mcp-h3 on Redis",
  "sdk-v2": "SDK v2",
  tmcp: "tmcp",
  "mcp-handler": "mcp-handler",
};

/** @param {Record<string, { median: number; min: number; max: number }>} bySystem */
function systemRows(bySystem) {
  return Object.entries(bySystem).map(([system, stats]) => ({
    label: SYSTEM_LABELS[/** @type {keyof typeof SYSTEM_LABELS} */ (system)] ?? system,
    median: stats.median,
    min: stats.min,
    max: stats.max,
    ours: system.startsWith("mcp-h3"),
  }));
}

/**
 * Every chart the results hold, by file name.
 * @param {any} results the parsed bench/results.json
 * @returns {Map<string, string>}
 */
export function benchPlots(results) {
  const { meta, scenarios, spreads, targets } = results;
  const run = `${meta.date.slice(0, 10)}, ${meta.machine.cores} cores, Node ${meta.node.replace(/^v/, "")}`;
  const charts = new Map();
  const repetitions = "bar: median of the repetitions; line: lowest to highest";
  if (scenarios.inproc_modern?.c32?.rps) {
    charts.set(
      "inproc-modern.svg",
      barChart({
        title: "Modern tools/call in-process, 32 concurrent: requests per second",
        unit: "/s",
        footer: `${repetitions}. ${run}`,
        rows: systemRows(scenarios.inproc_modern.c32.rps),
      }),
    );
  }
  if (scenarios.inproc_legacy?.c32?.rps) {
    charts.set(
      "inproc-legacy.svg",
      barChart({
        title: "Legacy tools/call in-process, 32 concurrent: requests per second",
        unit: "/s",
        footer: `mcp-h3 and tmcp in a session, SDK v2 and mcp-handler stateless; line: lowest to highest. ${run}`,
        rows: systemRows(scenarios.inproc_legacy.c32.rps),
      }),
    );
  }
  if (scenarios.sockets?.rps) {
    charts.set(
      "sockets.svg",
      barChart({
        title: "Node server over sockets (autocannon, 64 connections): requests per second",
        unit: "/s",
        footer: `${repetitions}. ${run}`,
        rows: systemRows(scenarios.sockets.rps),
      }),
    );
  }
  if (scenarios.bundle?.bundles) {
    charts.set(
      "bundle.svg",
      barChart({
        title: "Workers bundle of a one-tool server, gzip",
        unit: "KB",
        footer: `1 KB = 1000 B; smaller is better. ${run}`,
        rows: Object.entries(scenarios.bundle.bundles).map(([system, bundle]) => ({
          label: SYSTEM_LABELS[/** @type {keyof typeof SYSTEM_LABELS} */ (system)] ?? system,
          median: /** @type {{ gzipBytes: number }} */ (bundle).gzipBytes / 1000,
          ours: system.startsWith("mcp-h3"),
        })),
      }),
    );
  }
  // A run narrowed by --only has no pairs for the figures it left out: they get no row.
  const measured = Object.entries(spreads ?? {}).filter(([, spread]) => spread?.median != null);
  const ratioRows = measured.map(([key, spread]) => {
    const target = /** @type {{ key: string; target: string }[]} */ (targets ?? []).find((t) => t.key === key);
    const number = target ? /([≥≤])\s*([\d.]+)/.exec(target.target) : null;
    return {
      label: key,
      spread: /** @type {any} */ (spread),
      target: number ? { value: Number(number[2]), atLeast: number[1] === "≥" } : undefined,
    };
  });
  if (ratioRows.length > 0) {
    charts.set(
      "ratios.svg",
      ratioChart({
        title: "Paired ratios (alternating windows) against their targets",
        footer: `dot: median; box: interquartile range; line: lowest to highest pair; red: target; each row on its own scale from 0. ${run}`,
        rows: ratioRows,
      }),
    );
  }
  return charts;
}

/**
 * Writes the charts of `results` into docs/public/bench/ and returns the files written.
 * @param {any} results
 */
export function writeBenchPlots(results, outDir = OUT_DIR) {
  mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const [name, svg] of benchPlots(results)) {
    writeFileSync(`${outDir}${name}`, svg);
    written.push(`${outDir}${name}`);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const written = writeBenchPlots(JSON.parse(readFileSync(RESULTS, "utf8")));
  console.log(`wrote ${written.length} plots to docs/public/bench/`);
}
