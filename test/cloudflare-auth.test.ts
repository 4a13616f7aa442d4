/**
 * Two principals on Durable Objects (mcp-h3/cloudflare) in real workerd, as on Redis
 * (auth-instances.test.ts): bob presents alice's session, her event ids and her tasks in every
 * request a client can make, before and after a restart of workerd, and gets what an unknown one
 * gets; her session still answers and resumes; her per-principal session cap holds across restarts.
 */
import { describe, expect, it } from "vitest";
import { bearer } from "./helpers/auth.ts";
import { durableMcpForFile } from "./helpers/durable-mcp.ts";
import { finalOf, openTaskSession } from "./helpers/legacy-task-rpc.ts";
import { openGetStreamWhenFree } from "./helpers/live-sse.ts";
import {
  LEGACY,
  NOTES_URI,
  aliceStillOwns,
  bobCrosses,
  fillAliceStreams,
  openAs,
} from "./helpers/principal-crossings.ts";
import { post } from "./helpers/rpc.ts";
import { createTask, taskRequest } from "./helpers/task-rpc.ts";

const fixture = durableMcpForFile({ auth: true });
const mcpUrl = fixture.mcpUrl;

const init = (token: string) =>
  post(
    mcpUrl(),
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
    bearer(token),
  );

/** The answer's text with its JSON-RPC ids and task ids blanked: the same refusal for any of them. */
const shape = (text: string, taskId: string): string => text.replaceAll(taskId, "…").replace(/"id":\d+/g, '"id":…');

describe("two principals on a Durable Object", () => {
  it("bob's every use of alice's session is refused as an unknown one's, before and after a restart; hers answers", async () => {
    const alice = await openAs(mcpUrl(), "alice-token");
    const bob = await openAs(mcpUrl(), "bob-token");
    const owned = await fillAliceStreams(mcpUrl(), alice);
    await bobCrosses(mcpUrl(), owned, bob);

    await fixture.worker().restart();

    await bobCrosses(mcpUrl(), owned, bob);
    await aliceStillOwns(mcpUrl(), owned);
    // Bob's subscribe of her session to her notes held nothing: an update of them reaches her GET
    // stream only if she holds it (the store is the object's; this is its check on the wire).
    // Retried while her stream just closed still counts as open: the object hears of a client gone at
    // the stream's next write, a keep-alive at the latest (1 s here).
    const get = await openGetStreamWhenFree(mcpUrl(), alice.headers, 150);
    expect(get.response.status).toBe(200);
    await fetch(`${fixture.worker().url}/auth/changed?uri=${encodeURIComponent(NOTES_URI)}`);
    await post(
      mcpUrl(),
      { jsonrpc: "2.0", id: 5, method: "resources/subscribe", params: { uri: NOTES_URI } },
      alice.headers,
    );
    await fetch(`${fixture.worker().url}/auth/changed?uri=${encodeURIComponent(NOTES_URI)}`);
    const first = await get.sse.next(/resources\/updated/);
    // The first update went out before she subscribed: had bob's subscribe held, she would have had two.
    expect(await get.sse.next(/resources\/updated/, 1_000).catch(() => "none")).toBe("none");
    expect(first.data).toContain(NOTES_URI);
    get.sse.close();
  }, 60_000);

  it("alice's task is unknown to bob in both wires, after a restart too", async () => {
    const created = await createTask(mcpUrl(), "forever", {}, { token: "alice-token" });
    const taskId = created.taskId as string;
    const unknownId = "00000000-0000-4000-8000-000000000000";
    const asBob = async (method: string, id: string) =>
      shape((await taskRequest(mcpUrl(), method, { taskId: id }, { token: "bob-token" })).text, id);
    // One session of bob's for both rounds: it outlives the restart (and he may hold only 2).
    const legacy = await openTaskSession(mcpUrl(), { token: "bob-token" });
    for (const round of ["before", "after"]) {
      if (round === "after") await fixture.worker().restart();
      for (const method of ["tasks/get", "tasks/cancel"]) {
        expect(await asBob(method, taskId), `${method} ${round} a restart`).toBe(await asBob(method, unknownId));
      }
      for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
        const hers = finalOf(await legacy.rpc(method, { taskId }));
        const none = finalOf(await legacy.rpc(method, { taskId: unknownId }));
        expect(hers.error, `legacy ${method} ${round}`).toEqual(
          none.error && JSON.parse(JSON.stringify(none.error).replaceAll(unknownId, taskId)),
        );
      }
    }
    // Alice still has it (the restart killed its work: it is working until its lease runs out, or failed).
    const hers = await taskRequest(mcpUrl(), "tasks/get", { taskId }, { token: "alice-token" });
    expect(hers.text).toContain(taskId);
    expect(hers.text).not.toContain('"error"');
  }, 60_000);

  it("maxSessionsPerPrincipal holds across restarts; a DELETE frees a place, bob's DELETE of hers does not", async () => {
    const [first] = [await openAs(mcpUrl(), "carol-token").catch(() => undefined)];
    expect(first, "carol has no token: refused").toBeUndefined();
    const one = await openAs(mcpUrl(), "reader-token");
    await openAs(mcpUrl(), "reader-token");
    expect((await init("reader-token")).status).toBe(429);

    await fixture.worker().restart();

    expect((await init("reader-token")).status).toBe(429);
    const byBob = await fetch(mcpUrl(), { method: "DELETE", headers: { ...one.headers, ...bearer("bob-token") } });
    expect(byBob.status).toBe(404);
    expect((await init("reader-token")).status).toBe(429);
    const deleted = await fetch(mcpUrl(), { method: "DELETE", headers: one.headers });
    expect(deleted.status).toBe(200);
    expect((await init("reader-token")).status).toBe(200);
  }, 60_000);
});
