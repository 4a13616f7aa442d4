import { defineBuildConfig } from "unbuild";

export default defineBuildConfig({
  entries: ["src/index", "src/nitro", "src/redis/index"],
  declaration: "node16",
  rollup: { emitCJS: false },
  externals: ["h3", "nitropack", "zod"],
});
