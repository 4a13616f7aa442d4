import { defineBuildConfig } from "unbuild";

export default defineBuildConfig({
  entries: ["src/index", "src/nitro", "src/otel", { input: "src/redis/index", name: "redis" }],
  declaration: "node16",
  rollup: { emitCJS: false },
  externals: ["h3", "nitropack", "zod", "@opentelemetry/api"],
});
