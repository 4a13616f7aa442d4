/**
 * `npm run lint` refuses a function in src/ with six or more positional parameters
 * (scripts/check-parameters.mjs): declared, an expression, an arrow, a method, a constructor or a
 * signature. Five pass, a `this` parameter is not positional; an allowed name that is no longer over
 * the limit is reported, so the list of exceptions only shrinks; the sources themselves pass.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findLongSignatures, longSignatures } from "../../scripts/check-parameters.mjs";

const SIX = "a: number, b: number, c: number, d: number, e: number, f: number";
const FIVE = "a: number, b: number, c: number, d: number, e: number";

describe("the parameter count check", () => {
  it("refuses a six-parameter function, whatever its kind, by name and line", () => {
    const source = [
      `export function declared(${SIX}): void {}`,
      `export const arrow = (${SIX}): void => {};`,
      `export const expression = function (${SIX}): void {};`,
      `export class Box {`,
      `  constructor(${SIX}) {}`,
      `  method(${SIX}): void {}`,
      `}`,
      `export type Callback = (${SIX}) => void;`,
      `export interface Port { send(${SIX}): void }`,
      `export function rest(a: number, b: number, c: number, d: number, e: number, ...more: number[]): void {}`,
    ].join("\n");
    expect(longSignatures("sample.ts", source)).toEqual([
      { line: 1, name: "declared", count: 6 },
      { line: 2, name: "arrow", count: 6 },
      { line: 3, name: "expression", count: 6 },
      { line: 5, name: "constructor", count: 6 },
      { line: 6, name: "method", count: 6 },
      { line: 8, name: "Callback", count: 6 },
      { line: 9, name: "send", count: 6 },
      { line: 10, name: "rest", count: 6 },
    ]);
  });

  it("passes five parameters, and does not count a `this` parameter", () => {
    const source = [
      `export function five(${FIVE}): void {}`,
      `export function withThis(this: object, ${FIVE}): void {}`,
      `export function options(options: { a: number; b: number; c: number; d: number; e: number; f: number }): void {}`,
    ].join("\n");
    expect(longSignatures("sample.ts", source)).toEqual([]);
  });

  describe("on a source tree", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-h3-parameter-check-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write("http/reply.ts", `export function short(${FIVE}): void {}\n`);
    write("legacy/serve/get.ts", `\nexport async function resume(${SIX}): Promise<void> {}\n`);

    it("names each function over the limit as file:line", () => {
      expect(findLongSignatures(dir, [])).toEqual(["legacy/serve/get.ts:2 resume (6 parameters; at most 5)"]);
    });

    it("lets an allowed one pass, and reports one allowed that is no longer over the limit", () => {
      expect(findLongSignatures(dir, ["legacy/serve/get.ts:resume"])).toEqual([]);
      expect(findLongSignatures(dir, ["legacy/serve/get.ts:resume", "http/reply.ts:short"])).toEqual([
        "http/reply.ts:short is allowed but no longer over the limit: remove it from ALLOWED",
      ]);
    });
  });

  it("passes on the sources", () => {
    expect(findLongSignatures(fileURLToPath(new URL("../../src", import.meta.url)))).toEqual([]);
  });
});
