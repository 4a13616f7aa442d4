import { McpError as SdkMcpError, ErrorCode as SdkErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { ErrorCode, McpError, isMcpError } from "../../src/protocol/errors.ts";

describe("isMcpError", () => {
  it("recognises this library's McpError and its subclasses", () => {
    class Refused extends McpError {}
    expect(isMcpError(new McpError(ErrorCode.InvalidParams, "no"))).toBe(true);
    expect(isMcpError(new Refused(ErrorCode.InternalError, "no"))).toBe(true);
  });

  it("recognises an McpError of another copy by its registered brand, whatever its name", () => {
    class OtherCopy extends Error {
      code = -32602;
    }
    Object.defineProperty(OtherCopy.prototype, Symbol.for("mcp-h3.McpError"), { value: true });
    expect(isMcpError(new OtherCopy("renamed by a minifier"))).toBe(true);
  });

  it("does not take an error that only looks alike: the MCP SDK's McpError, a plain name and code", () => {
    const sdk = new SdkMcpError(SdkErrorCode.InvalidParams, "upstream");
    expect(sdk.name).toBe("McpError");
    expect(isMcpError(sdk)).toBe(false);
    expect(isMcpError(Object.assign(new Error("x"), { name: "McpError", code: -32603 }))).toBe(false);
    expect(isMcpError({ name: "McpError", code: -32603, message: "x" })).toBe(false);
    expect(isMcpError(null)).toBe(false);
    expect(isMcpError("McpError")).toBe(false);
  });

  it("keeps the brand out of the error's own keys and its JSON", () => {
    const error = new McpError(ErrorCode.InvalidParams, "no", { field: "city" });
    expect(Reflect.ownKeys(error)).not.toContain(Symbol.for("mcp-h3.McpError"));
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: "McpError", code: -32602, data: { field: "city" } });
  });
});
