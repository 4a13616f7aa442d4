/**
 * What `resources/list` and `resources/templates/list` show of a resource: every field of its
 * description (`ResourceDescription`: name, title, description, mimeType, icons, annotations,
 * _meta), its `size` for a resource (a template has none), and, for the resources a template's
 * `list` names, the template's `mimeType` where they have none. Over real HTTP on h3 v2 and h3 v1,
 * with the official 2.x client in both eras.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineResource, defineResourceTemplate, type ResourceDescription } from "../src/index.ts";
import { createMcpTestClient } from "../src/_entries/testing.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";

const DESCRIBED: Omit<ResourceDescription, "name"> = {
  title: "Notes",
  description: "The team's notes",
  mimeType: "text/markdown",
  icons: [{ src: "https://example.com/notes.png", mimeType: "image/png", sizes: ["48x48"] }],
  annotations: { audience: ["user"], priority: 0.5 },
  _meta: { "example.com/owner": "team" },
};

const handler = defineMcpHandler({
  name: "resource-listing",
  version: "1.0.0",
  resources: [
    defineResource({ uri: "notes://all", name: "notes", size: 42, ...DESCRIBED, handler: () => "# Notes" }),
    defineResourceTemplate({
      uriTemplate: "notes://{id}",
      name: "note",
      ...DESCRIBED,
      list: () => [
        { uri: "notes://1", name: "first", icons: DESCRIBED.icons, annotations: { priority: 1 }, _meta: { n: 1 } },
        { uri: "notes://2", name: "second", mimeType: "text/plain", size: 7 },
      ],
      handler: (_event, { id }) => `note ${id}`,
    }),
  ],
});
afterAll(() => handler.close());

describe.each(HOSTS)("resource listings on %s", (host) => {
  let running: RunningHost;
  beforeAll(async () => {
    running = await startHost(host, handler);
  });
  afterAll(() => running.close());

  describe.each(["legacy", "modern"] as const)("in the %s era", (era) => {
    it("resources/list shows every field of a resource's description, its size, and the template's resources", async () => {
      await using client = await createMcpTestClient(running.url, { era });
      const { resources } = await client.listResources();
      expect(resources).toEqual([
        { uri: "notes://all", name: "notes", size: 42, ...DESCRIBED },
        {
          uri: "notes://1",
          name: "first",
          mimeType: "text/markdown",
          icons: DESCRIBED.icons,
          annotations: { priority: 1 },
          _meta: { n: 1 },
        },
        { uri: "notes://2", name: "second", mimeType: "text/plain", size: 7 },
      ]);
    });

    it("resources/templates/list shows every field of a template's description, and no size", async () => {
      await using client = await createMcpTestClient(running.url, { era });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([{ uriTemplate: "notes://{id}", name: "note", ...DESCRIBED }]);
    });
  });
});
