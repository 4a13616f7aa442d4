/** Types of scripts/plot-bench.mjs for the test that checks the committed plots. */
/** Every chart `results` (a parsed bench/results.json) holds, SVG text by file name. */
export declare function benchPlots(results: unknown): Map<string, string>;
/** Writes the charts into `outDir` (docs/public/bench/ by default); returns the files written. */
export declare function writeBenchPlots(results: unknown, outDir?: string): string[];
