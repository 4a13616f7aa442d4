/** Types of scripts/build-inspector.mjs for the tests that build the inspector page themselves. */
export interface InspectorPage {
  html: string;
  scriptHash: string;
  styleHash: string;
}
export declare const INSPECTOR_PAGE_FILE: string;
export declare function buildInspectorPage(): Promise<InspectorPage>;
export declare function writeInspectorPage(): Promise<InspectorPage>;
