/**
 * Prints a judged run (every target with its spread, the figures reported without a target, the
 * problems) and gives the exit code: 1 when the judge found any problem — a missed target, a void
 * or missing figure, a failed repetition or pair — and 0 only when it found none. bench/run.mjs
 * and bench/rejudge.mjs both exit with it, so no miss can end a run with 0.
 */

const spreadText = (s) =>
  s && s.pairs > 0 ? `  IQR ${s.q1}–${s.q3}, min–max ${s.min}–${s.max}, ${s.pairs} pairs` : "";

export function printVerdict({ verdict, targets, figures, spreads = {} }, print = console.log) {
  print("\nfigures:");
  for (const target of targets) {
    const reason = target.reason && target.verdict !== "void" ? ` (${target.reason})` : "";
    print(
      `  ${target.key.padEnd(32)} ${String(target.measured ?? "-").padStart(10)}  target ${target.target.padEnd(12)} ${target.verdict}${reason}${spreadText(spreads[target.key])}`,
    );
  }
  const reported = Object.keys(figures).filter((key) => !targets.some((target) => target.key === key));
  if (reported.length > 0) print("\nreported (no target):");
  for (const key of reported) {
    print(`  ${key.padEnd(32)} ${String(figures[key] ?? "-").padStart(10)}${spreadText(spreads[key])}`);
  }
  if (verdict.ok && verdict.problems.length === 0) {
    print("\nevery target met; no failed repetition, no error response.");
    return 0;
  }
  print(`\nFAILED: ${verdict.problems.length} problem(s):`);
  for (const problem of verdict.problems) print(`  - ${problem}`);
  return 1;
}
