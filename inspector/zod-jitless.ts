/**
 * Imported first by main.ts: zod (which the 2.x client validates with) would otherwise probe with
 * `new Function("")` whether it may compile fast parsers, a CSP `script-src` violation on a page that
 * allows no eval. Its schemas read this setting when they are built, so it must run before the client
 * loads. main.ts uses the export: the package declares `sideEffects: false`, so a bare import would be dropped.
 */
import { config } from "zod/v4/core";

export const zodConfig = config({ jitless: true });
