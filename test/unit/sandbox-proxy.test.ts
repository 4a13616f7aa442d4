/**
 * The sandbox proxy's narrowing of what a host asks for (inspector/sandbox-proxy.ts): a view's frame never gets
 * `allow-same-origin` or any flag outside VIEW_SANDBOX_FLAGS, and its document starts with its own CSP.
 */
import { describe, expect, it } from "vitest";
import { viewDocument, viewSandboxFlags } from "../../inspector/sandbox-proxy.ts";

describe("the sandbox proxy's view frame", () => {
  it("keeps only the flags a view may have, and always allow-scripts", () => {
    expect(viewSandboxFlags("allow-scripts allow-same-origin")).toBe("allow-scripts");
    expect(viewSandboxFlags("allow-same-origin allow-top-navigation allow-forms\tallow-popups")).toBe(
      "allow-scripts allow-forms allow-popups",
    );
    expect(viewSandboxFlags(undefined)).toBe("allow-scripts");
    expect(viewSandboxFlags(["allow-same-origin"])).toBe("allow-scripts");
  });

  it("puts the view's declared CSP before its HTML, and drops entries that are not origins", () => {
    const html = viewDocument("<p>view</p>", {
      connectDomains: [
        "https://api.example.com",
        'https://x.example.com" onload="alert(1)',
        "https://y.example.com; script-src *",
      ],
    });
    expect(html).toMatch(
      /^<meta http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*"><p>view<\/p>$/,
    );
    expect(html).toContain("connect-src https://api.example.com;");
    expect(html).not.toContain("x.example.com");
    expect(html).not.toContain("y.example.com");
    expect(viewDocument("<p>view</p>", "not an object")).toContain("connect-src 'none'");
  });
});
