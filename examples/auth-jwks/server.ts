// An h3 v2 app serving MCP at /mcp behind OAuth: each request's bearer token is verified as a JWT against the
// authorization server's JWKS, or (with INTROSPECTION_URL set) asked about at its introspection endpoint; the
// RFC 9728 metadata that tells clients where to get a token is served beside it.
import { H3 } from "h3";
import { defineMcpHandler, defineProtectedResourceMetadata, protectedResourceMetadataUrl } from "mcp-h3";
import { serve } from "srvx";
import { tools } from "../catalog.ts";
import { createIntrospectionVerifier, createJwtVerifier } from "./verifiers.ts";

const port = Number(process.env.PORT ?? 3000);
// The canonical URL of this MCP endpoint: the audience tokens must be issued for.
const resource = process.env.MCP_URL ?? `http://localhost:${port}/mcp`;
const issuer = process.env.ISSUER ?? "http://localhost:8080";

const validate = process.env.INTROSPECTION_URL
  ? createIntrospectionVerifier({
      introspectionUrl: process.env.INTROSPECTION_URL,
      clientId: process.env.CLIENT_ID ?? "mcp-server",
      clientSecret: process.env.CLIENT_SECRET ?? "",
      audience: resource,
    })
  : createJwtVerifier({ jwksUrl: process.env.JWKS_URL ?? `${issuer}/jwks`, issuer, audience: resource });

const app = new H3()
  .all(
    "/mcp",
    defineMcpHandler({
      name: "example-auth-jwks",
      version: "1.0.0",
      tools,
      auth: { validate, resourceMetadataUrl: protectedResourceMetadataUrl(resource), scopes: ["mcp:tools"] },
    }),
  )
  .all(
    new URL(protectedResourceMetadataUrl(resource)).pathname,
    defineProtectedResourceMetadata({ resource, authorizationServers: [issuer], scopesSupported: ["mcp:tools"] }),
  );

serve({ fetch: app.fetch, hostname: "127.0.0.1", port });
