import { defineNitroConfig } from "nitropack/config";

// A plain nitropack 2 app, as `npx giget nitro` makes it: no alias, no tsconfig paths. The test
// installs the packed library into a copy and builds it with the preset it is testing.
export default defineNitroConfig({
  compatibilityDate: "2025-07-01",
  srcDir: ".",
});
