/** Types of build-app-views.mjs for the TypeScript that imports it (tests, the fixture). */
export declare const APPS_DIR: string;
/** Where the built view of `name` (e.g. "weather-view") is written. */
export declare function appViewFile(name: string): string;
/** Where the built page `page` of the minimal host is written. */
export declare function appHostFile(page: "host" | "sandbox"): string;
/** Builds the view `examples/apps/<name>/` into one HTML document; with `write`, writes it to `appViewFile(name)`. */
export declare function buildAppView(name: string, options?: { write?: boolean }): Promise<string>;
/** Builds the minimal host's pages (host.html, sandbox.html); with `write`, writes them to `appHostFile(page)`. */
export declare function buildAppHost(options?: { write?: boolean }): Promise<{ host: string; sandbox: string }>;
/** Every `<name>-view/` folder of examples/apps. */
export declare function appViewNames(): Promise<string[]>;
