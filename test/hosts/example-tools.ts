/** The tools of examples/catalog.ts, as the era sequences call them. */
import { expect } from "vitest";
import type { EraTools } from "../helpers/era-sequences.ts";
import { textOf } from "../helpers/results.ts";

export const EXAMPLE_TOOLS: EraTools = {
  progress: { name: "countdown", text: "liftoff" },
  ask: { name: "greet", check: (result, _era, name) => expect(textOf(result)).toBe(`Hello, ${name}!`) },
  announce: { name: "announce", text: "announced" },
};
