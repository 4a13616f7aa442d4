/** A full garbage collection from inside a test, so heap figures count live objects only. */
import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | undefined;

/** Runs a full GC (exposing V8's `gc` once when the process was not started with `--expose-gc`). */
export function collectGarbage(): void {
  if (!collect) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) collect = exposed;
    else {
      v8.setFlagsFromString("--expose-gc");
      collect = vm.runInNewContext("gc") as () => void;
    }
  }
  collect();
}
