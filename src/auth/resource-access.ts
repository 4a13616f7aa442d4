/**
 * Who may read a resource: the one rule behind `resources/read`, `resources/subscribe` (legacy),
 * a listen's `resourceSubscriptions` (modern) and the delivery of `notifications/resources/updated`,
 * so that an update never tells a client about a resource it could not read.
 */
import { isGranted, type Catalog } from "../define/catalog.ts";

/**
 * Whether a caller may read the resource at `uri`: the catalog built for its request serves it
 * (so `enabled` said yes) and, with auth on, `identity` holds every scope the definition names.
 *
 * @example
 * const catalog = await services.catalogs.get(event, caller?.identity.scopes);
 * if (!mayReadResource(catalog, "docs://secret", caller?.identity)) return; // not delivered
 */
export function mayReadResource(
  catalog: Catalog,
  uri: string,
  identity: { readonly scopes: readonly string[] } | undefined,
): boolean {
  const definition = catalog.resourceFor(uri);
  return definition !== undefined && isGranted(definition, identity?.scopes);
}
