/**
 * examples/h3-v2-srvx and examples/h3-v1 on Node 22 (TypeScript run by stripping types), each in its
 * own process, importing "mcp-h3" from the built package by the repository's self-reference; both
 * eras' sequences with the real clients.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { describeEraSequences } from "../helpers/era-sequences.ts";
import { EXAMPLE_TOOLS } from "./example-tools.ts";
import { NODE_22, startExample, type RunningExample } from "./runtime-process.ts";

describe.each(["h3-v2-srvx", "h3-v1"])("examples/%s on Node", (name) => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample(() => ({ file: NODE_22, args: ["--no-warnings", `examples/${name}/server.ts`] }));
  });
  afterAll(() => example?.close());

  describeEraSequences(() => example.url, EXAMPLE_TOOLS);
});
