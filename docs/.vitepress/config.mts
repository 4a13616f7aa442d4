import { fileURLToPath } from "node:url";
import { transformerTwoslash } from "@shikijs/vitepress-twoslash";
import ts from "typescript";
import type { ShikiTransformer } from "shiki";
import { defineConfig } from "vitepress";
import { docsCompilerOptions, H3_V1_MARKER } from "./compiler-options.ts";
import { sidebar } from "./sidebar.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Twoslash on every `ts` block (not only `ts twoslash` ones): a block that does not compile fails the build. */
function checkedBlocks(h3V1: boolean): ShikiTransformer {
  const json = docsCompilerOptions(root, { h3V1 });
  const { options, errors } = ts.convertCompilerOptionsFromJson(json, root);
  if (errors.length > 0) throw new Error(ts.flattenDiagnosticMessageText(errors[0]!.messageText, "\n"));
  return transformerTwoslash({
    explicitTrigger: false,
    langs: ["ts"],
    throws: true,
    twoslashOptions: { compilerOptions: options },
  }) as ShikiTransformer;
}

/** Blocks of an h3 v1 app (first line `// An h3 v1 app`) go to a twoslash whose "h3" is h3 v1's types. */
function twoslashPerBlock(): ShikiTransformer {
  const v2 = checkedBlocks(false);
  const v1 = checkedBlocks(true);
  const pick = (code: string | undefined): ShikiTransformer => (code?.startsWith(H3_V1_MARKER) ? v1 : v2);
  const transformer: Record<string, unknown> = { name: "mcp-h3:twoslash" };
  for (const hook of Object.keys(v2) as (keyof ShikiTransformer)[]) {
    if (typeof v2[hook] !== "function") continue;
    transformer[hook] = function (this: { source?: string }, ...args: unknown[]) {
      const code = hook === "preprocess" ? (args[0] as string) : this.source;
      return (pick(code)[hook] as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
  return transformer as ShikiTransformer;
}

/**
 * The docs site. `DOCS_TWOSLASH=0` builds without the type check (test/docs-site.test.ts does: the blocks are
 * type-checked by test/docs-blocks.test.ts on TypeScript 5.9 and 7, and the build takes a third of the time).
 */
export default defineConfig({
  title: "mcp-h3",
  description: "Serve the Model Context Protocol, both eras, from one H3 event handler.",
  head: [["link", { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" }]],
  // A page's chunk carries the type hovers of its blocks: the tasks page, whose SDK client block hovers over large
  // schema types, is 760 kB (the largest; no page is near 1 MB), which Vite's 500 kB default warns about every build.
  vite: { build: { chunkSizeWarningLimit: 1000 } },
  markdown: { codeTransformers: process.env.DOCS_TWOSLASH === "0" ? [] : [twoslashPerBlock()] },
  themeConfig: {
    search: { provider: "local" },
    nav: [
      { text: "Guide", link: "/guide/getting-started" },
      { text: "Reference", link: "/reference/conformance" },
      { text: "Contributing", link: "/contributing/" },
    ],
    sidebar,
    outline: { level: [2, 3] },
  },
});
