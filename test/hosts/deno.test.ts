/**
 * examples/deno under `deno serve` (the deno binary from the lockfile), with network access only: no
 * --allow-env, so reading the environment throws there and must count as unset. Both eras' sequences
 * with the real clients.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { describeEraSequences } from "../helpers/era-sequences.ts";
import { EXAMPLE_TOOLS } from "./example-tools.ts";
import { BIN, startExample, type RunningExample } from "./runtime-process.ts";

describe("examples/deno on Deno, without --allow-env", () => {
  let example: RunningExample;
  beforeAll(async () => {
    example = await startExample((port) => ({
      file: BIN("deno"),
      args: ["serve", "--allow-net=127.0.0.1", "--host", "127.0.0.1", "--port", String(port), "examples/deno/main.ts"],
    }));
  }, 60_000);
  afterAll(() => example?.close());

  describeEraSequences(() => example.url, EXAMPLE_TOOLS);
});
