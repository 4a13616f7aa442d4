/**
 * A modern listen's `resourceSubscriptions` need what `resources/read` needs, on h3 v2 and h3 v1,
 * raw and with the 2.x client: a URI whose resource or template names a scope the token lacks gets
 * the same 403 `insufficient_scope` challenge as reading it; one that `enabled` leaves out gets the
 * `-32602` "Resource not found" of an unknown URI; an allowed one is still delivered, and nothing
 * else is. The per-stream caps: more distinct URIs than `maxSubscriptions` (duplicates counted once)
 * or a URI longer than `maxUriLength` gets `-32602` naming the limit, before any stream opens.
 */
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineResource, defineResourceTemplate, defineTool } from "../src/index.ts";
import { CALL_TIMEOUT_MS } from "./helpers/clients.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { liveSse, type LiveSse } from "./helpers/live-sse.ts";
import {
  MODERN_MODES,
  MODERN_PROTOCOL_VERSION,
  connectModern,
  type ModernConnection,
} from "./helpers/modern-clients.ts";
import { METADATA_URL, bearer, modernPost, staticAuth } from "./helpers/auth.ts";
import { POST_HEADERS, expectError, single, toAnswer, type Answer } from "./helpers/rpc.ts";

const MAX_SUBSCRIPTIONS = 3;
const MAX_URI_LENGTH = 64;
const beta = { on: false };

/** A tool announcing `resources/updated` for the URI it is given. */
function touchTool() {
  return defineTool({
    name: "touch",
    input: { type: "object", properties: { uri: { type: "string" } } },
    handler: async (event, args) => {
      await event.context.mcp!.notify.resourceUpdated(String(args.uri));
      return "touched";
    },
  });
}

function handler() {
  return defineMcpHandler({
    name: "listen-subscriptions",
    version: "1.0.0",
    auth: staticAuth(),
    maxSubscriptions: MAX_SUBSCRIPTIONS,
    maxUriLength: MAX_URI_LENGTH,
    tools: [touchTool()],
    resources: [
      defineResource({ uri: "notes://public", name: "public", handler: () => "public" }),
      defineResource({ uri: "notes://private", name: "private", scopes: ["write"], handler: () => "private" }),
      defineResource({ uri: "beta://doc", name: "beta", enabled: () => beta.on, handler: () => "beta" }),
      // No scopes of its own, though the scoped template below matches its URI: it is what is read.
      defineResource({ uri: "drafts://readme", name: "drafts-readme", handler: () => "how drafts work" }),
      defineResourceTemplate({
        uriTemplate: "drafts://{id}",
        name: "drafts",
        scopes: ["write"],
        handler: (_event, { id }) => `draft ${id}`,
      }),
      defineResourceTemplate({ uriTemplate: "items://{id}", name: "items", handler: (_event, { id }) => `item ${id}` }),
    ],
  });
}

let nextId = 1;

/** A raw listen: its open stream when the server acknowledged it, else its JSON answer. */
async function listen(url: string, token: string, uris: unknown[]): Promise<{ answer?: Answer; stream?: LiveSse }> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: nextId++,
    method: "subscriptions/listen",
    params: { notifications: { resourceSubscriptions: uris }, _meta: meta },
  });
  const headers = {
    ...POST_HEADERS,
    ...bearer(token),
    "mcp-protocol-version": MODERN_PROTOCOL_VERSION,
    "mcp-method": "subscriptions/listen",
  };
  const abort = new AbortController();
  const response = await fetch(url, { method: "POST", headers, body, signal: abort.signal });
  if (response.headers.get("content-type")?.includes("text/event-stream")) {
    return { stream: liveSse(response, abort) };
  }
  return { answer: await toAnswer(response) };
}

function touch(url: string, uri: string): Promise<Answer> {
  return modernPost(url, "alice-token", "tools/call", { name: "touch", arguments: { uri } });
}

/** The URIs an open listen's acknowledgement honours. */
async function acknowledgedUris(stream: LiveSse): Promise<unknown> {
  const ack = JSON.parse((await stream.next(/subscriptions\/acknowledged/)).data) as {
    params: { notifications: { resourceSubscriptions?: string[] } };
  };
  return ack.params.notifications.resourceSubscriptions;
}

/** The URI of the next `resources/updated` a stream receives. */
async function nextUpdate(stream: LiveSse): Promise<string> {
  const event = await stream.next(/resources\/updated/);
  return (JSON.parse(event.data) as { params: { uri: string } }).params.uri;
}

/** The 403 `resources/read` gives a URI needing `scope`, as the listen's answer. */
function expectInsufficientScope(answer: Answer | undefined, scope: string): void {
  expect(answer, "a stream was opened").toBeDefined();
  expectError(answer!, 403, -32000, /Forbidden/);
  const challenge = extractWWWAuthenticateParams(new Response(null, { headers: answer!.headers }));
  expect(challenge).toMatchObject({ error: "insufficient_scope", scope });
  expect(challenge.resourceMetadataUrl?.href).toBe(METADATA_URL);
}

describe.each(HOSTS)("listen resourceSubscriptions on %s", (host) => {
  let server: RunningHost;
  const served = handler();
  const streams: LiveSse[] = [];
  const clients: ModernConnection[] = [];
  beforeAll(async () => {
    server = await startHost(host, served);
  });
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await Promise.all(clients.splice(0).map((client) => client.close()));
    beta.on = false;
  });
  afterAll(() => server.close());

  it("a URI whose resource or template needs a scope the token lacks gets the 403 reading it gets", async () => {
    for (const uri of ["notes://private", "drafts://7"]) {
      const read = await modernPost(server.url, "reader-token", "resources/read", { uri });
      expectInsufficientScope(read, "write");
      const { answer, stream } = await listen(server.url, "reader-token", ["notes://public", uri]);
      if (stream) streams.push(stream);
      expectInsufficientScope(answer, "write");
      expect(answer!.json).toEqual(read.json);
    }
    expect(served.engine.services.listens.streams.size).toBe(0);
  });

  it("an allowed URI is still delivered, and an update of a URI the stream does not hold never is", async () => {
    const reader = await listen(server.url, "reader-token", ["notes://public", "items://1"]);
    const alice = await listen(server.url, "alice-token", ["notes://private", "drafts://7"]);
    streams.push(reader.stream!, alice.stream!);
    expect(await acknowledgedUris(reader.stream!)).toEqual(["notes://public", "items://1"]);
    expect(await acknowledgedUris(alice.stream!)).toEqual(["notes://private", "drafts://7"]);
    for (const uri of ["notes://private", "drafts://7", "items://1", "notes://public"]) {
      expect(single(await touch(server.url, uri)).result).toBeDefined();
    }
    // One bus, in order: once the last update reached a stream, an earlier one wrongly sent there would have too.
    expect(await nextUpdate(reader.stream!)).toBe("items://1");
    expect(await nextUpdate(reader.stream!)).toBe("notes://public");
    expect(await nextUpdate(alice.stream!)).toBe("notes://private");
    expect(await nextUpdate(alice.stream!)).toBe("drafts://7");
  });

  it("a resource is read and listened to by its own rules, even where a scoped template matches its URI", async () => {
    const read = single(await modernPost(server.url, "reader-token", "resources/read", { uri: "drafts://readme" }));
    expect(JSON.stringify(read.result)).toContain("how drafts work");
    const { stream } = await listen(server.url, "reader-token", ["drafts://readme"]);
    streams.push(stream!);
    expect(await acknowledgedUris(stream!)).toEqual(["drafts://readme"]);
    await touch(server.url, "drafts://readme");
    expect(await nextUpdate(stream!)).toBe("drafts://readme");
  });

  it("a URI that enabled leaves out gets the answer of an unknown URI, and is served once enabled", async () => {
    const unknown = await listen(server.url, "alice-token", ["nothing://here"]);
    expectError(unknown.answer!, 200, -32602, /Resource not found: "nothing:\/\/here"/);
    expect(single(unknown.answer!).error!.data).toEqual({ uri: "nothing://here" });

    const read = single(await modernPost(server.url, "alice-token", "resources/read", { uri: "beta://doc" }));
    expect(read.error).toMatchObject({ code: -32602, data: { uri: "beta://doc" } });
    const disabled = await listen(server.url, "alice-token", ["notes://public", "beta://doc"]);
    if (disabled.stream) streams.push(disabled.stream);
    expectError(disabled.answer!, 200, -32602, /Resource not found: "beta:\/\/doc"/);
    expect(single(disabled.answer!).error).toEqual({ ...read.error, message: 'Resource not found: "beta://doc"' });

    beta.on = true;
    const enabled = await listen(server.url, "alice-token", ["beta://doc"]);
    streams.push(enabled.stream!);
    expect(await acknowledgedUris(enabled.stream!)).toEqual(["beta://doc"]);
    await touch(server.url, "beta://doc");
    expect(await nextUpdate(enabled.stream!)).toBe("beta://doc");
  });

  it("holds at most maxSubscriptions distinct URIs, duplicates counted once", async () => {
    const over = await listen(server.url, "alice-token", ["items://1", "items://2", "items://3", "items://4"]);
    if (over.stream) streams.push(over.stream);
    expectError(over.answer!, 200, -32602, /maxSubscriptions \(3\)/);
    expect(single(over.answer!).error!.data).toEqual({ limit: "maxSubscriptions", max: MAX_SUBSCRIPTIONS });

    const repeated = ["items://1", "items://2", "items://1", "items://3", "items://2", "items://3"];
    const held = await listen(server.url, "alice-token", repeated);
    streams.push(held.stream!);
    expect(await acknowledgedUris(held.stream!)).toEqual(["items://1", "items://2", "items://3"]);
    await touch(server.url, "items://3");
    expect(await nextUpdate(held.stream!)).toBe("items://3");
  });

  it("refuses a URI longer than maxUriLength, naming the limit", async () => {
    const long = `items://${"x".repeat(MAX_URI_LENGTH)}`;
    const refused = await listen(server.url, "alice-token", ["items://1", long]);
    if (refused.stream) streams.push(refused.stream);
    expectError(refused.answer!, 200, -32602, /maxUriLength \(64 characters\)/);
    expect(single(refused.answer!).error!.data).toEqual({ limit: "maxUriLength", max: MAX_URI_LENGTH });
    const fits = `items://${"x".repeat(MAX_URI_LENGTH - "items://".length)}`;
    const held = await listen(server.url, "alice-token", [fits]);
    streams.push(held.stream!);
    expect(await acknowledgedUris(held.stream!)).toEqual([fits]);
  });

  it("the 2.x client: a forbidden URI fails its listen; an allowed template URI is delivered", async () => {
    const options = { timeout: CALL_TIMEOUT_MS };
    const reader = await connectModern(server.url, MODERN_MODES[0]!, {}, {}, "reader-token");
    const alice = await connectModern(server.url, MODERN_MODES[0]!, {}, {}, "alice-token");
    clients.push(reader, alice);
    await expect(reader.client.listen({ resourceSubscriptions: ["drafts://7"] }, options)).rejects.toThrow();
    expect(reader.requests("subscriptions/listen").map((exchange) => exchange.status)).toContain(403);

    const updates: unknown[] = [];
    alice.client.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
    const subscription = await alice.client.listen({ resourceSubscriptions: ["drafts://7"] }, options);
    try {
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ["drafts://7"] });
      await touch(server.url, "drafts://8");
      await touch(server.url, "drafts://7");
      await expect.poll(() => updates).toEqual(["drafts://7"]);
    } finally {
      await subscription.close();
    }
  });
});

describe.each(HOSTS)("a listen acknowledgement larger than maxStreamBufferBytes on %s", (host) => {
  it("is written whole, and the stream then delivers", async () => {
    const served = defineMcpHandler({
      name: "big-ack",
      version: "1.0.0",
      maxStreamBufferBytes: 256,
      maxUriLength: 200,
      tools: [touchTool()],
      resources: [defineResourceTemplate({ uriTemplate: "items://{id}", name: "items", handler: () => "item" })],
    });
    const server = await startHost(host, served);
    const uris = ["a", "b", "c"].map((letter) => `items://${letter.repeat(190)}`);
    const { answer, stream } = await listen(server.url, "no-token", uris);
    try {
      expect(answer, answer?.text).toBeUndefined();
      // The acknowledgement echoes about 600 bytes of URIs the client sent: more than the bound, not unread output.
      expect(await acknowledgedUris(stream!)).toEqual(uris);
      expect(served.incidents.slow_reader_closed).toBe(0);
      await modernPost(server.url, "no-token", "tools/call", { name: "touch", arguments: { uri: uris[1] } });
      expect(await nextUpdate(stream!)).toBe(uris[1]);
    } finally {
      stream?.close();
      await server.close();
    }
  });
});

describe("the maxSubscriptions option", () => {
  const base = { name: "options", version: "1.0.0" };
  const resolved = (options: Partial<Parameters<typeof defineMcpHandler>[0]>) => {
    const { maxSubscriptions, sessions } = defineMcpHandler({ ...base, ...options }).engine.services.options;
    return { listen: maxSubscriptions, session: sessions === false ? undefined : sessions.maxSubscriptions };
  };

  it("one number caps a legacy session and a listen; the legacy-only name still works; 0 and more", () => {
    expect(resolved({})).toEqual({ listen: 1000, session: 1000 });
    expect(resolved({ maxSubscriptions: 20 })).toEqual({ listen: 20, session: 20 });
    expect(resolved({ sessions: { maxSubscriptions: 30 } })).toEqual({ listen: 30, session: 30 });
    expect(resolved({ maxSubscriptions: 20, sessions: { maxSubscriptions: 30 } })).toEqual({ listen: 20, session: 20 });
    expect(resolved({ maxSubscriptions: 5, sessions: false })).toEqual({ listen: 5, session: undefined });
    expect(resolved({ maxSubscriptions: 0 })).toEqual({ listen: 0, session: 0 });
    expect(() => resolved({ maxSubscriptions: 1.5 })).toThrow(/maxSubscriptions must be a whole number/);
    expect(() => resolved({ sessions: { maxSubscriptions: -1 } })).toThrow(/sessions\.maxSubscriptions/);
  });
});
