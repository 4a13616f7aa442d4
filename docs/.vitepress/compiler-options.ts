import { join } from "node:path";

/** The library's entries, as a reader's `import "mcp-h3/…"` reaches them: here, their sources. */
export const ENTRIES = [
  "index",
  "nitro",
  "nuxt",
  "definitions",
  "otel",
  "redis",
  "cloudflare",
  "shared",
  "apps",
  "tasks",
  "skills",
  "inspector",
  "testing",
] as const;

/**
 * A block whose first line is this comment shows an h3 v1 app: it is checked with "h3" (the block's import and the
 * library's own) resolving to h3 v1's types. The README's blocks use the same marker.
 */
export const H3_V1_MARKER = "// An h3 v1 app";

/**
 * How the docs' `ts` blocks are compiled, in tsconfig.json form, at build time (twoslash) and by
 * test/docs-blocks.test.ts (TypeScript 5.9's API and TypeScript 7's CLI): strict, ESM, and no `@types` package
 * loaded unless a block imports it, as TypeScript 7 compiles a new project. `h3V1` checks an h3 v1 app.
 */
export function docsCompilerOptions(root: string, { h3V1 = false } = {}) {
  const paths: Record<string, string[]> = Object.fromEntries(
    ENTRIES.map((entry) =>
      entry === "index"
        ? ["mcp-h3", [join(root, "src/index.ts")]]
        : [`mcp-h3/${entry}`, [join(root, `src/_entries/${entry}.ts`)]],
    ),
  );
  // The inspector entry loads its page module by a package import, which the sources map to its declaration.
  paths["#inspector-page"] = [join(root, "src/inspector/page-module.d.ts")];
  // requestState's AES-GCM engine, which package.json `imports` maps to the built files: here, its WebCrypto source.
  paths["#request-state-aead"] = [join(root, "src/modern/mrtr/aead-web.ts")];
  // The testing guide's Nuxt block: @nuxt/test-utils is not a dependency here (docs/.vitepress/stubs says why).
  paths["@nuxt/test-utils/e2e"] = [join(root, "docs/.vitepress/stubs/nuxt-test-utils-e2e.d.ts")];
  // The tutorial's nuxt.config.ts: Nuxt is not a dependency here either.
  paths["nuxt/config"] = [join(root, "docs/.vitepress/stubs/nuxt-config.d.ts")];
  if (h3V1) paths.h3 = [join(root, "node_modules/h3-v1/dist/index.d.mts")];
  return {
    target: "ES2022",
    // ESNext.Disposable: `await using` (the testing guide), as a reader's TypeScript 5.2+ project declares it.
    lib: ["ES2023", "ESNext.Disposable", "DOM", "DOM.Iterable"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    types: [] as string[],
    paths,
  };
}
