/**
 * Protocol revisions this library speaks, kept apart by era so that a modern
 * revision can never be offered in a legacy `initialize` handshake.
 */

/** Legacy (session) revisions a server negotiates at `initialize`, newest first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26"];

/** Accepted when a client asks for it at `initialize`, never offered as a counter-proposal. */
export const ACCEPTED_OLD_PROTOCOL_VERSIONS: readonly string[] = ["2024-11-05"];

/** Modern (stateless, per-request `_meta`) revisions, newest first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];

/** What a legacy request without `MCP-Protocol-Version` is assumed to speak (spec: SHOULD assume 2025-03-26). */
export const DEFAULT_LEGACY_PROTOCOL_VERSION = "2025-03-26";

const legacyAll = new Set([...LEGACY_PROTOCOL_VERSIONS, ...ACCEPTED_OLD_PROTOCOL_VERSIONS]);
const modernAll = new Set(MODERN_PROTOCOL_VERSIONS);

/** True for a legacy revision this server can hold a session in. */
export function isSupportedLegacyVersion(version: string): boolean {
  return legacyAll.has(version);
}

/** True for a modern revision this server serves. */
export function isSupportedModernVersion(version: string): boolean {
  return modernAll.has(version);
}

/**
 * True when a version string names the modern era, supported or not. Revisions are
 * ISO dates, so the comparison is lexical, as in the specification's versioning rules.
 */
export function isModernVersionString(version: string): boolean {
  return version >= "2026-07-28";
}

/** Legacy revisions that allow JSON-RPC batches (removed in 2025-06-18). */
export function allowsBatches(version: string): boolean {
  return version <= "2025-03-26";
}

/** Legacy revisions whose clients understand an SSE priming event with empty data and `retry:`. */
export function supportsSsePriming(version: string): boolean {
  return version >= "2025-11-25";
}
