/**
 * mcp-h3/inspector's handler over real HTTP on h3 v2 and v1, and its fetch form: the page is served
 * to loopback by default with a CSP naming its inline script and style by hash; a forwarded request,
 * a foreign Host, `enabled: false` or an unknown peer (the fetch form without an address) get a 404;
 * `enabled: true` serves anyone; the configuration is put in as inert JSON. The same route serves the MCP
 * App sandbox proxy (`?mcp-app-sandbox`) only on the host views are framed from (the other loopback name, or
 * `appSandboxOrigin`), in an opaque origin, framed only by the page's origin, whatever its URL says; a bad
 * `appSandboxOrigin` or `pageOrigin` is refused when the inspector is defined.
 */
import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpInspector, isLoopbackAddress, isLoopbackHost } from "mcp-h3/inspector";
import { HOSTS } from "./helpers/hosts.ts";
import { ensureInspectorPage, startInspectorHost, type InspectorHost } from "./helpers/inspector-host.ts";

/** A GET with exactly these headers (fetch would not let a test set Host). */
function get(port: number, headers: Record<string, string> = {}, method = "GET", path = "/inspector") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.once("error", reject);
      req.end();
    },
  );
}

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe.each(HOSTS)("the inspector page on %s", (host) => {
  let loopbackOnly: InspectorHost;
  let open: InspectorHost;
  let off: InspectorHost;
  beforeAll(async () => {
    loopbackOnly = await startInspectorHost(host, undefined, defineMcpInspector({ endpoint: "/mcp</script><b>" }));
    open = await startInspectorHost(host, undefined, defineMcpInspector({ enabled: true, auth: true }));
    off = await startInspectorHost(host, undefined, defineMcpInspector({ enabled: false }));
  });
  afterAll(async () => {
    await Promise.all([loopbackOnly?.close(), open?.close(), off?.close()]);
  });

  it("serves the page to loopback by default, its inline script and style allowed by hash only", async () => {
    const page = await get(loopbackOnly.port, { host: `localhost:${loopbackOnly.port}` });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.body).toContain("<title>mcp-h3 inspector</title>");
    const script = /<script type="module">([\s\S]*?)<\/script>/.exec(page.body)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.body)![1]!;
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain(`script-src ${sha(script)}`);
    expect(csp).toContain(`style-src ${sha(style)}`);
    expect(csp).toContain("frame-ancestors 'none'");
    // The endpoint option is data: it cannot close the JSON script element.
    const config = /<script type="application\/json" id="mcp-inspector-config">([\s\S]*?)<\/script>/
      .exec(page.body)![1]!
      .trim();
    // MCP App views are framed from the machine's other loopback name, and only from there.
    const sandboxOrigin = `http://127.0.0.1:${loopbackOnly.port}`;
    expect(JSON.parse(config)).toEqual({ endpoint: "/mcp</script><b>", auth: false, sandboxOrigin });
    expect(csp).toContain(`frame-src ${sandboxOrigin};`);
    expect(config).not.toContain("<");
    // IPv4 literal Host is loopback too; HEAD has no body.
    expect((await get(loopbackOnly.port, { host: `127.0.0.1:${loopbackOnly.port}` })).status).toBe(200);
    const head = await get(loopbackOnly.port, {}, "HEAD");
    expect([head.status, head.body]).toEqual([200, ""]);
  });

  it("serves the MCP App sandbox proxy on a loopback name, framed only by the other one, in an opaque origin", async () => {
    const { port } = loopbackOnly;
    // A ?csp= in the URL changes nothing any more: the policy is the server's.
    const path = `/inspector?mcp-app-sandbox=1&csp=${encodeURIComponent('{"connectDomains":["https://x.example.com"]}')}`;
    const sandbox = await get(port, { host: `127.0.0.1:${port}` }, "GET", path);
    expect(sandbox.status).toBe(200);
    expect(sandbox.body).toContain("<title>MCP App sandbox</title>");
    expect(sandbox.body).not.toContain("mcp-inspector-config");
    expect(sandbox.body).toContain(`{"hostOrigin":"http://localhost:${port}"}`);
    const csp = String(sandbox.headers["content-security-policy"]);
    expect(csp).toContain(`frame-ancestors http://localhost:${port};`);
    expect(csp).toMatch(/; sandbox allow-scripts allow-forms allow-popups allow-modals$/);
    expect(csp).not.toContain("allow-same-origin");
    expect(csp).not.toContain("x.example.com");
    const twin = await get(port, { host: `localhost:${port}` }, "GET", path);
    expect(String(twin.headers["content-security-policy"])).toContain(`frame-ancestors http://127.0.0.1:${port};`);
    // Not on any other name (this one resolves to loopback too), and the same access rule as the page.
    expect((await get(port, { host: `evil.test:${port}` }, "GET", path)).status).toBe(404);
    const forwarded = { host: `127.0.0.1:${port}`, "x-forwarded-for": "203.0.113.9" };
    expect((await get(port, forwarded, "GET", path)).status).toBe(404);
  });

  it("refuses a forwarded request, a foreign Host and other methods", async () => {
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip", "x-forwarded-host", "cf-connecting-ip"]) {
      const refused = await get(loopbackOnly.port, { host: `localhost:${loopbackOnly.port}`, [header]: "203.0.113.9" });
      expect([header, refused.status, refused.body]).toEqual([header, 404, "Not Found"]);
    }
    expect((await get(loopbackOnly.port, { host: "inspector.example.com" })).status).toBe(404);
    expect((await get(loopbackOnly.port, { host: "127.0.0.1.example.com" })).status).toBe(404);
    if (host === "h3-v1") {
      // h3 v1 mounts with app.use (any method); h3 v2's .get() route answers 405 itself.
      const post = await get(loopbackOnly.port, {}, "POST");
      expect(post.status).toBe(405);
    }
  });

  it("serves everyone with enabled: true (auth field open) and no one with enabled: false", async () => {
    const page = await get(open.port, { host: "inspector.example.com", "x-forwarded-for": "203.0.113.9" });
    expect(page.status).toBe(200);
    expect(page.body).toContain('{"endpoint":"/mcp","auth":true}');
    expect((await get(off.port, { host: `localhost:${off.port}` })).status).toBe(404);
  });
});

describe("the inspector's fetch form", () => {
  beforeAll(() => ensureInspectorPage());
  const request = (headers: Record<string, string> = {}) => new Request("http://localhost:8787/inspector", { headers });

  it("is off for an unknown peer (a Worker) unless enabled, and on for a loopback peer", async () => {
    const inspector = defineMcpInspector();
    expect((await inspector.fetch(request())).status).toBe(404);
    expect((await inspector.fetch(request(), { remoteAddress: "203.0.113.9" })).status).toBe(404);
    expect((await inspector.fetch(request(), { remoteAddress: "::ffff:127.0.0.1" })).status).toBe(200);
    expect((await defineMcpInspector({ enabled: true }).fetch(request())).status).toBe(200);
  });

  it("takes a dev server's word for a proxied request only with the dev build's token, and never under a foreign Host", async () => {
    // What a request looks like when `nuxi dev` forwards it: its proxy's headers and no peer address.
    const proxied = (word: string, host = "localhost:3000") =>
      new Request(`http://${host}/inspector`, {
        headers: { "x-forwarded-for": "127.0.0.1", "x-forwarded-proto": "http", "x-mcp-h3-dev-proxy": word },
      });
    const inspector = defineMcpInspector();
    const key = Symbol.for("mcp-h3.dev-proxy-token");
    const token = "t".repeat(43);
    // No token (a production build): the header means nothing.
    expect((await inspector.fetch(proxied(token))).status).toBe(404);
    (globalThis as Record<symbol, unknown>)[key] = token;
    try {
      expect((await inspector.fetch(proxied(token))).status).toBe(200);
      expect((await inspector.fetch(proxied(`${token.slice(1)}x`))).status).toBe(404);
      expect((await inspector.fetch(proxied(""))).status).toBe(404);
      // The Host check holds whoever vouches: a DNS-rebinding page's name gets nothing.
      expect((await inspector.fetch(proxied(token, "evil.test:3000"))).status).toBe(404);
    } finally {
      delete (globalThis as Record<symbol, unknown>)[key];
    }
  });

  it("lets same-origin pages frame it only when embeddable", async () => {
    const framed = await defineMcpInspector({ enabled: true, embeddable: true }).fetch(request());
    expect(framed.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    const plain = await defineMcpInspector({ enabled: true }).fetch(request());
    expect(plain.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("frames MCP App views from appSandboxOrigin for the page at pageOrigin, and from nowhere off loopback without it", async () => {
    const remote = new Request("https://tools.example.com/inspector");
    const none = await defineMcpInspector({ enabled: true }).fetch(remote);
    expect(none.headers.get("content-security-policy")).toContain("frame-src 'none'");
    const deployed = defineMcpInspector({
      enabled: true,
      appSandboxOrigin: "https://sandbox.example.com",
      pageOrigin: "https://tools.example.com",
    });
    const given = await deployed.fetch(remote);
    expect(given.headers.get("content-security-policy")).toContain("frame-src https://sandbox.example.com;");
    expect(await given.text()).toContain('"sandboxOrigin":"https://sandbox.example.com"');
    // A page opened elsewhere shows no views (the sandbox would refuse it as a parent).
    const elsewhere = await deployed.fetch(new Request("https://other.example.com/inspector"));
    expect(elsewhere.headers.get("content-security-policy")).toContain("frame-src 'none'");
    // The sandbox: only on its own host, framed only by the page's origin; that host serves no page.
    const sandbox = await deployed.fetch(new Request("https://sandbox.example.com/inspector?mcp-app-sandbox=1"));
    expect(sandbox.status).toBe(200);
    expect(sandbox.headers.get("content-security-policy")).toContain("frame-ancestors https://tools.example.com;");
    expect(await sandbox.text()).toContain('{"hostOrigin":"https://tools.example.com"}');
    for (const url of [
      "https://tools.example.com/inspector?mcp-app-sandbox=1",
      "https://sandbox.example.com/inspector",
    ]) {
      expect([url, (await deployed.fetch(new Request(url))).status]).toEqual([url, 404]);
    }
  });

  it("refuses an appSandboxOrigin or pageOrigin that is not an origin, or the page's own, when defined", () => {
    const page = "https://tools.example.com";
    const bad = [
      "sandbox.example.com",
      "https://sandbox.example.com/x",
      "https://sandbox.example.com?a",
      "ftp://s.example.com",
      "https://u@s.example.com",
      "not a url",
    ];
    for (const appSandboxOrigin of bad) {
      expect(() => defineMcpInspector({ appSandboxOrigin, pageOrigin: page })).toThrow(
        /appSandboxOrigin must be an http\(s\) origin/,
      );
      expect(() =>
        defineMcpInspector({ appSandboxOrigin: "https://s.example.com", pageOrigin: appSandboxOrigin }),
      ).toThrow(/pageOrigin must be an http\(s\) origin/);
    }
    expect(() => defineMcpInspector({ appSandboxOrigin: page, pageOrigin: `${page}/` })).toThrow(
      /must be another host than the page's/,
    );
    expect(() => defineMcpInspector({ appSandboxOrigin: "https://s.example.com" })).toThrow(
      /appSandboxOrigin needs pageOrigin/,
    );
    expect(() => defineMcpInspector({ pageOrigin: page })).toThrow(/pageOrigin goes with appSandboxOrigin/);
    expect(() =>
      defineMcpInspector({ appSandboxOrigin: "https://s.example.com:8443/", pageOrigin: page }),
    ).not.toThrow();
  });

  it("knows loopback addresses and hosts", () => {
    expect(["127.0.0.1", "127.8.9.10", "::1", "[::1]", "::ffff:127.0.0.1"].map(isLoopbackAddress)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(
      ["10.0.0.1", "::ffff:10.0.0.1", "128.0.0.1", "", undefined, "127.0.0.1.evil"].map(isLoopbackAddress),
    ).toEqual([false, false, false, false, false, false]);
    expect(["localhost", "localhost:3000", "127.0.0.1:80", "[::1]:3000", "LOCALHOST"].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(["localhost.evil.com", "evil.com", "[::2]:3000", null].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
