/**
 * protocol/csp-source.ts: the origins a CSP source expression may name, checked in one pass (the
 * apps' definition-time check builds on it; over HTTP: test/apps.test.ts).
 */
import { describe, expect, it } from "vitest";
import { isCspOrigin } from "../../src/protocol/csp-source.ts";

describe("isCspOrigin", () => {
  it.each([
    "https://example.com",
    "http://127.0.0.1:3000",
    "https://*.example.com",
    "https://*.example.com:8443",
    "https://cdn.example.com:*",
    "wss://live.example.com",
    "ws://localhost:65535",
    "HTTPS://API.Example.com",
    `https://${"a".repeat(63)}.example.com`,
  ])("accepts %s", (value) => {
    expect(isCspOrigin(value)).toBe(true);
  });

  it.each([
    "https://a.example.com;script-src",
    "https://a.example.com,https://b.example.com",
    "https://a'unsafe-eval'.example.com",
    'https://a"b.example.com',
    "https://a.example.com https://b.example.com",
    "'unsafe-eval'",
    "'self'",
    "*",
    "https://*",
    "https://*.",
    "https://*.*.example.com",
    "https://a*b.example.com",
    "javascript:alert(1)",
    "data:text/html,x",
    "blob:https://example.com/x",
    "ftp://example.com",
    "https:example.com",
    "example.com",
    "https://example.com/",
    "https://example.com/path",
    "https://example.com?x",
    "https://example.com#x",
    "https://user@example.com",
    "https://[::1]",
    "https://a..example.com",
    "https://.example.com",
    "https://example.com.",
    "https://-a.example.com",
    "https://a-.example.com",
    `https://${"a".repeat(64)}.example.com`,
    "https://example.com:",
    "https://example.com:0",
    "https://example.com:65536",
    "https://example.com:123456",
    "https://example.com:8a",
    "https://example.com:**",
    "https://exämple.com",
    "",
    42,
    null,
  ])("refuses %j", (value) => {
    expect(isCspOrigin(value)).toBe(false);
  });

  it("refuses a long entry without reading it", () => {
    const long = `https://${"a.".repeat(500_000)}example.com`;
    const started = performance.now();
    for (let round = 0; round < 1000; round++) expect(isCspOrigin(long)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
