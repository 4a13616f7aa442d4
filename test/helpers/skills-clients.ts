/**
 * A skills host of each era for the `@olaservo/ext-skills` client functions: the SDK 1.x client
 * (legacy) or the 2.x client pinned to 2026-07-28 (modern), with raw JSON-RPC beside it.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import type { SkillsClient } from "@olaservo/ext-skills/client";

export interface SkillsHost {
  client: SkillsClient & {
    listResources(): Promise<{ resources: { uri: string; name: string; description?: string }[] }>;
  };
  close(): Promise<void>;
}

/** Connects a skills host of `era` to the MCP endpoint at `url`. */
export async function connectSkillsHost(era: "legacy" | "modern", url: string): Promise<SkillsHost> {
  if (era === "legacy") {
    const client = new ClientV1({ name: "skills-host", version: "1.0.0" });
    await client.connect(new TransportV1(new URL(url)));
    return { client: client as never, close: () => client.close() };
  }
  const client = new ClientV2(
    { name: "skills-host", version: "2.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new TransportV2(new URL(url)));
  return { client: client as never, close: () => client.close() };
}
