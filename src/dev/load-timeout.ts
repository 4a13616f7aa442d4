/**
 * The default bound of one definition file's load in dev (`devLoadTimeoutMs`), apart from the dev
 * handler and the module so that each imports it without the other's code.
 */

/** Far above what a file's evaluation takes, short enough to be told of a hang (ms). */
export const DEV_LOAD_TIMEOUT_MS = 10_000;
