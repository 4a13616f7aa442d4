/**
 * `npm run fuzz -- --count N --seed S [--concurrency C] [--auth]`: a long fuzz run (Node 22, types
 * stripped, `--expose-gc`); `--auth` runs the servers with bearer-token auth (see `auth.ts`). Prints the closing line, and the seed and index of each failure; exits 1 on any.
 */
import { describeFailures, runFuzz } from "./runner.ts";

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`--${name} needs a non-negative integer`);
  return value;
}

const report = await runFuzz({
  count: argument("count", 20_000),
  seed: argument("seed", Date.now() % 2 ** 31),
  concurrency: argument("concurrency", 6),
  auth: process.argv.includes("--auth"),
  onProgress: (line) => console.error(line),
}).catch((error: unknown) => {
  // The fuzzer itself broke: say so and stop (its servers would keep the process alive).
  console.error("fuzz: the run itself failed:", error);
  process.exit(2);
});
if (report.failures.length > 0) console.error(describeFailures(report, 50));
console.log(report.closing);
process.exit(report.failures.length > 0 ? 1 : 0);
