/** `server/discover`: versions, capabilities, instructions and server info, cacheable. */
import type { JsonObject } from "../protocol/jsonrpc.ts";
import { MODERN_PROTOCOL_VERSIONS } from "../protocol/versions.ts";
import type { ModernServices } from "./services.ts";

export function discover(services: ModernServices): JsonObject {
  const result: JsonObject = {
    supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
    capabilities: services.discoverCapabilities,
  };
  if (services.options.instructions !== undefined) result.instructions = services.options.instructions;
  return result;
}
