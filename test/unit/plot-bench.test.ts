/**
 * The benchmark plots of the docs site (scripts/plot-bench.mjs): the committed SVGs in docs/public/bench/ are
 * exactly what the committed bench/results.json draws, each chart names the figures it plots, and a run that left
 * a scenario out (--only) leaves that chart alone.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { benchPlots } from "../../scripts/plot-bench.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const results = JSON.parse(readFileSync(`${root}bench/results.json`, "utf8"));

describe("benchmark plots", () => {
  const plots = benchPlots(results);

  it("the committed plots are those of the committed results (node scripts/plot-bench.mjs redraws them)", () => {
    expect([...plots.keys()].sort()).toEqual([
      "bundle.svg",
      "inproc-legacy.svg",
      "inproc-modern.svg",
      "ratios.svg",
      "sockets.svg",
    ]);
    for (const [name, svg] of plots) {
      expect(readFileSync(`${root}docs/public/bench/${name}`, "utf8"), name).toBe(svg);
    }
  });

  it("each chart is one SVG document naming its figures", () => {
    for (const svg of plots.values()) {
      expect(svg.startsWith("<svg ")).toBe(true);
      expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
      expect(svg).not.toMatch(/NaN|undefined|Infinity/);
    }
    const modern = results.scenarios.inproc_modern.c32.rps["mcp-h3"].median;
    expect(plots.get("inproc-modern.svg")).toContain(`${Math.round(modern).toLocaleString("en-US")} /s`);
    expect(plots.get("bundle.svg")).toContain(
      `${(results.scenarios.bundle.bundles["mcp-h3"].gzipBytes / 1000).toFixed(1)} KB`,
    );
    // Every paired ratio is a row, and a missed target shows as missed.
    for (const key of Object.keys(results.spreads)) expect(plots.get("ratios.svg")).toContain(`>${key}</text>`);
    expect(plots.get("ratios.svg")).toContain("missed");
  });

  it("a chart whose scenario the run left out is not drawn", () => {
    const { sockets: _sockets, bundle: _bundle, ...scenarios } = results.scenarios;
    const partial = benchPlots({ ...results, scenarios });
    expect(partial.has("sockets.svg")).toBe(false);
    expect(partial.has("bundle.svg")).toBe(false);
    expect(partial.has("inproc-modern.svg")).toBe(true);
  });

  it("a paired ratio the run left out (no pairs, --only) gets no row", () => {
    const [left, ...kept] = Object.keys(results.spreads);
    const empty = { median: null, q1: null, q3: null, min: null, max: null, pairs: 0 };
    const ratios = benchPlots({ ...results, spreads: { ...results.spreads, [left!]: empty } }).get("ratios.svg")!;
    expect(ratios).not.toContain(`>${left}</text>`);
    for (const key of kept) expect(ratios).toContain(`>${key}</text>`);
    expect(ratios).not.toMatch(/NaN|undefined|Infinity|null/);
  });
});
