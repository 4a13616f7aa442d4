/** Reading what a tool call returned: its single text item, and the JSON in that text. */
import { expect } from "vitest";

/** The part of a call result these readers look at (both clients' result types fit). */
export interface TextResult {
  content?: unknown;
  isError?: boolean;
}

/** The text of a successful result's single text item. */
export function textOf(result: TextResult): string {
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  const content = result.content as { type: string; text?: string }[] | undefined;
  expect(content).toHaveLength(1);
  expect(content![0]!.type).toBe("text");
  return content![0]!.text!;
}

/** The JSON a tool returned as its text item. */
export function jsonOf(result: TextResult): any {
  return JSON.parse(textOf(result));
}
