/** Types of check-parameters.mjs for the TypeScript that imports it (test/unit/parameter-count.test.ts). */
export declare const MOST_PARAMETERS: number;
export declare const ALLOWED: readonly string[];
/** A function over the limit in one source file. */
export interface LongSignature {
  /** Its first line, from 1. */
  readonly line: number;
  /** Its name, its variable's or property's, `constructor`, or `(anonymous)`. */
  readonly name: string;
  /** Its positional parameters. */
  readonly count: number;
}
export declare function longSignatures(fileName: string, text: string): LongSignature[];
export declare function findLongSignatures(srcDir: string, allowed?: readonly string[]): string[];
