/**
 * Legacy sessions on Durable Objects (mcp-h3/cloudflare) in real workerd, offline: the Worker
 * builds its handler anew for every request and workerd is restarted (SIGKILL) between steps, so
 * what a session keeps can only be in the object's storage. The official SDK 1.x client drives it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { openRawSession, postInSession, toolCall } from "./helpers/legacy-raw.ts";
import { CLIENTS } from "./helpers/clients.ts";
import { MODERN_MODES, connectModern } from "./helpers/modern-clients.ts";
import { openGetStream } from "./helpers/live-sse.ts";
import { durableMcpForFile } from "./helpers/durable-mcp.ts";

const fixture = durableMcpForFile();
const mcpUrl = fixture.mcpUrl;

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport; updates: string[] }> {
  const client = new Client({ name: "durable-test", version: "1.0.0" });
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri);
  });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl()));
  await client.connect(transport);
  return { client, transport, updates };
}

const textOf = (result: unknown): string | undefined =>
  (result as { content?: { text?: string }[] }).content?.[0]?.text;

describe("legacy sessions on a Durable Object", () => {
  it("a session outlives a restart of workerd: calls after it are served in the same session", async () => {
    const { client, transport } = await connect();
    const sessionId = transport.sessionId;
    expect(sessionId).toBeTruthy();
    expect(textOf(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } }))).toBe("5");

    await fixture.worker().restart();

    expect(textOf(await client.callTool({ name: "add", arguments: { a: 4, b: 5 } }))).toBe("9");
    expect(transport.sessionId).toBe(sessionId);
    await transport.terminateSession();
    // DELETE ended it: its id is unknown now, after a restart too.
    await fixture.worker().restart();
    const after = await postInSession(
      mcpUrl(),
      { id: sessionId!, headers: { "mcp-session-id": sessionId!, "mcp-protocol-version": "2025-11-25" } },
      toolCall(9, "add", { a: 1, b: 1 }),
    );
    expect(after.status).toBe(404);
    await client.close();
  }, 60_000);

  it("a subscription's update reaches the GET stream, sent from a tool call and from the Worker's own code", async () => {
    const { client, updates } = await connect();
    await client.subscribeResource({ uri: "docs://readme" });
    // The client's GET stream opens on its own after initialize; give it a moment to be there.
    await expect
      .poll(
        async () => {
          await client.callTool({ name: "touch_readme", arguments: {} });
          return updates.length;
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    const before = updates.length;
    const sent = await fetch(`${fixture.worker().url}/changed?uri=docs://readme`);
    expect(await sent.json()).toEqual({ sent: true });
    await expect.poll(() => updates.length, { timeout: 5_000 }).toBeGreaterThan(before);
    await client.close();
  }, 60_000);

  it("a GET stream cut by a restart resumes with Last-Event-ID from storage; notifySession from the Worker reaches it", async () => {
    const session = await openRawSession(mcpUrl());
    const tell = async (): Promise<unknown> =>
      (await fetch(`${fixture.worker().url}/notify-session?id=${session.id}`)).json();
    const first = await openGetStream(mcpUrl(), session.headers);
    expect(first.response.status).toBe(200);
    expect(await tell()).toEqual({ delivered: true });
    const seen = await first.sse.next(/from the Worker/);
    expect(await tell()).toEqual({ delivered: true });
    const missed = await first.sse.next(/from the Worker/);

    await fixture.worker().restart();
    first.sse.close();

    // The client saw only the first: it resumes after it and gets the second from the object's storage.
    const resumed = await openGetStream(mcpUrl(), { ...session.headers, "last-event-id": seen.id! });
    expect(resumed.response.status).toBe(200);
    const replayed = await resumed.sse.next(/from the Worker/);
    expect(replayed.id).toBe(missed.id);
    // The resumed stream is the session's stream now: a notification reaches it live.
    expect(await tell()).toEqual({ delivered: true });
    const live = await resumed.sse.next(/from the Worker/);
    expect(live.id).not.toBe(missed.id);
    resumed.sse.close();
  }, 60_000);
});

describe("the object's internal side is the Worker's own", () => {
  it("a client's request with the internal header is served as MCP (refused), and delivers nothing", async () => {
    const session = await openRawSession(mcpUrl());
    const get = await openGetStream(mcpUrl(), session.headers);
    const forged = await fetch(mcpUrl(), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-mcp-h3-internal": "1",
        ...session.headers,
      },
      body: JSON.stringify({
        kind: "session",
        sessionId: session.id,
        method: "notifications/message",
        params: { data: "forged" },
      }),
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(await forged.text()).toContain('"jsonrpc":"2.0"');
    // The stream got nothing forged: the next event on it is what the Worker's own code sends.
    expect(await (await fetch(`${fixture.worker().url}/notify-session?id=${session.id}`)).json()).toEqual({
      delivered: true,
    });
    expect((await get.sse.next(/forged|from the Worker/)).data).toContain("from the Worker");
    get.sse.close();
  }, 30_000);
});

describe("the official clients through the Durable Object, across a restart", () => {
  it.each(CLIENTS)(
    "%s (legacy): a session's calls and reads go on after a restart",
    async (factory) => {
      const client = await factory.connect(mcpUrl());
      expect((await client.callTool("add", { a: 1, b: 2 })).content?.[0]?.text).toBe("3");
      await fixture.worker().restart();
      expect((await client.readResource("docs://readme")).contents[0]?.text).toBe("hello");
      expect(client.sessionId).toBeTruthy();
      await client.close();
    },
    60_000,
  );

  it.each(MODERN_MODES)(
    "client 2.x, $name (modern): calls, reads and a task, across a restart",
    async (mode) => {
      const connection = await connectModern(mcpUrl(), mode);
      const { client } = connection;
      expect(textOf(await client.callTool({ name: "add", arguments: { a: 20, b: 22 } }))).toBe("42");
      await fixture.worker().restart();
      expect(textOf(await client.callTool({ name: "slow", arguments: { ms: 10 } }))).toBe("slept 10");
      const read = await client.readResource({ uri: "docs://readme" });
      expect((read.contents[0] as { text?: string }).text).toBe("hello");
      expect(connection.errors).toEqual([]);
      await connection.close();
    },
    60_000,
  );

  it("client 2.x (modern): a listen stream hears list changes and resource updates sent from the Worker and from a call", async () => {
    const listener = await connectModern(mcpUrl(), MODERN_MODES[0]!);
    const caller = await connectModern(mcpUrl(), MODERN_MODES[0]!);
    const heard: string[] = [];
    listener.client.setNotificationHandler("notifications/tools/list_changed", () => void heard.push("tools"));
    listener.client.setNotificationHandler("notifications/resources/updated", (n) => void heard.push(n.params.uri));
    const subscription = await listener.client.listen({
      toolsListChanged: true,
      resourceSubscriptions: ["docs://readme"],
    });
    try {
      await fetch(`${fixture.worker().url}/changed?uri=docs://readme`);
      await expect.poll(() => heard, { timeout: 5_000 }).toEqual(["docs://readme"]);
      expect(textOf(await caller.client.callTool({ name: "touch_readme", arguments: {} }))).toBe("touched");
      await expect.poll(() => heard, { timeout: 5_000 }).toEqual(["docs://readme", "docs://readme"]);
      const listChanged = await fetch(`${fixture.worker().url}/changed?method=notifications/tools/list_changed`);
      expect(await listChanged.json()).toEqual({ sent: true });
      await expect.poll(() => heard, { timeout: 5_000 }).toContain("tools");
    } finally {
      await subscription.close();
      await listener.close();
      await caller.close();
    }
  }, 60_000);
});
