/** Types of system-services.mjs for the TypeScript that imports it (test/helpers/services.ts). */
export interface SystemService {
  /** The command or program, as a reader would look for it. */
  readonly name: string;
  /** Where it was found, or undefined when it is missing. */
  readonly path: string | undefined;
  /** How to install it: the Debian/Ubuntu package, then elsewhere. */
  readonly install: string;
}
export declare function onPath(command: string): string | undefined;
/** True when `CI` is set to anything but "", "0" or "false". */
export declare const IN_CI: boolean;
export declare const REDIS: SystemService;
export declare const CHROMIUM: SystemService;
export declare const SERVICES: readonly SystemService[];
/** The line that says a service is missing, what follows and how to install it. */
export declare function missingLine(service: SystemService, consequence: string): string;
