/**
 * The part of `nuxt/config` the tutorial's `nuxt.config.ts` uses, so its block is type-checked with the others: Nuxt
 * is not installed here (the Nuxt apps of test/frameworks and examples/nuxt4 install their own). The `mcp` key is
 * typed from the module's options, as Nuxt types it from `mcp-h3/nuxt`; the rest of Nuxt's config is left open.
 */
import type { McpNuxtModuleOptions } from "mcp-h3/nuxt";

export interface NuxtConfig {
  compatibilityDate?: string;
  modules?: string[];
  mcp?: McpNuxtModuleOptions;
  [key: string]: unknown;
}
/** Returns the config as given, typed. */
export declare function defineNuxtConfig(config: NuxtConfig): NuxtConfig;
