/**
 * Nothing that walks client data recurses without a bound or does super-linear work (issue 10). Over
 * real HTTP on both hosts, with raw `fetch`: the worst input of each class up to the body limit gets its
 * exact answer, the server serves the next request, and where the old code was super-linear the cost
 * of two input sizes grows linearly (a ratio well under the quadratic one, never a wall-clock limit).
 *
 * - nesting deeper than `maxJsonDepth` anywhere in a body: 400 `-32602`, id null, `data.maxJsonDepth`;
 *   in a sampled answer's JSON: a tool error naming the depth;
 * - a forged sampling answer against the fence scan, URI templates against their matcher,
 *   `uniqueItems` over objects: linear;
 * - base64 of `requestState` and of `=?base64?…?=` headers: one canonical spelling only;
 * - client values quoted in error messages: short.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineMcpHandler, defineResourceTemplate, defineTool } from "../src/index.ts";
import { HOSTS, startHost, type RunningHost } from "./helpers/hosts.ts";
import { POST_HEADERS, expectError, single, toAnswer, type Answer, type RpcMessage } from "./helpers/rpc.ts";

// Wire constants spelled out, so that a drift in the library shows up.
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const INVALID_PARAMS = -32602;
const HEADER_MISMATCH = -32020;
const MAX_JSON_DEPTH = 64;
const MAX_URI_LENGTH = 16_384;
/** A hang guard only: the old code took minutes on these inputs. */
const HANG_GUARD_MS = 60_000;

const NAME_FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

const ask = defineTool({
  name: "ask",
  description: "Asks for a name; takes any arguments, and keeps `pad` in its state",
  input: { type: "object" },
  handler: async (event, args) => {
    const { pad } = args as { pad?: unknown };
    if (typeof pad === "string") event.context.mcp!.state = pad;
    const answer = await event.context.mcp!.elicit("name", "Your name?", NAME_FORM);
    return `hello ${(answer.content as { name: string }).name}`;
  },
});

const sampled = defineTool({
  name: "sampled",
  description: "Reads a JSON object from the model's answer",
  input: { type: "object" },
  handler: async (event) => {
    const answer = await event.context.mcp!.sample("answer", "An object, as JSON", { schema: { type: "object" } });
    return `keys: ${Object.keys(answer.data as object).length}`;
  },
});

const plain = defineTool({
  name: "plain",
  description: "Takes any arguments",
  input: { type: "object" },
  handler: () => "ok",
});

const tagged = defineTool({
  name: "tagged",
  description: "Mirrors region in Mcp-Param-Region",
  input: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
  handler: () => "ok",
});

const unique = defineTool({
  name: "unique",
  description: "Takes an array of unique items",
  input: { type: "object", properties: { items: { type: "array", uniqueItems: true } }, required: ["items"] },
  handler: (_event, args) => `${(args as { items: unknown[] }).items.length} items`,
});

/** The same array without `uniqueItems`: what parsing and checking an array of that size costs anyway. */
const anyItems = defineTool({
  name: "any_items",
  description: "Takes an array",
  input: { type: "object", properties: { items: { type: "array" } }, required: ["items"] },
  handler: (_event, args) => `${(args as { items: unknown[] }).items.length} items`,
});

/** A tree whose nodes are told apart by `required`: both alternatives of `oneOf` descend into `child`. */
const tree = defineTool({
  name: "tree",
  description: "Takes a tree",
  input: {
    $defs: {
      node: {
        oneOf: [
          { type: "object", properties: { child: { $ref: "#/$defs/node" } }, required: ["leaf"] },
          { type: "object", properties: { child: { $ref: "#/$defs/node" } }, required: ["branch"] },
        ],
      },
    },
    type: "object",
    properties: { root: { $ref: "#/$defs/node" } },
  },
  handler: () => "ok",
});

/** Template shapes that made the old RegExp backtrack, each with the URI body that fails latest. */
const SHAPES = [
  { uriTemplate: "tile://{z}.{x}.{y}", prefix: "tile://", unit: "1.", matching: ["tile://", ".2.3"] },
  { uriTemplate: "dash://{a}-{b}-{c}-{d}-{e}", prefix: "dash://", unit: "-", matching: ["dash://", "-b-c-d-e"] },
  { uriTemplate: "dots://{a}..{b}..{c}", prefix: "dots://", unit: ".", matching: ["dots://", "..b..c"] },
  { uriTemplate: "ab://{a}ab{b}aba{c}", prefix: "ab://", unit: "ab", matching: ["ab://", "abxabay"] },
];

const templates = SHAPES.map(({ uriTemplate }, index) =>
  defineResourceTemplate({
    uriTemplate,
    name: `shape-${index}`,
    handler: (_event, variables) => JSON.stringify(variables),
  }),
);

function handlerFor(maxUriLength?: number): ReturnType<typeof defineMcpHandler> {
  return defineMcpHandler({
    name: "client-data-bounds",
    version: "1.0.0",
    logging: true,
    tools: [ask, sampled, plain, tagged, unique, anyItems, tree],
    resources: templates,
    ...(maxUriLength === undefined ? {} : { maxUriLength }),
  });
}

// ---------------------------------------------------------------------------------------------
// Messages and requests

let nextId = 1;

function modern(method: string, params: Record<string, unknown>, capabilities: object = {}): RpcMessage {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  return { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } };
}

function sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** The standard headers a modern client sends with `message`, then `extra`. */
function modernHeaders(message: RpcMessage, extra: Record<string, string> = {}): Record<string, string> {
  const params = message.params ?? {};
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    "mcp-protocol-version": MODERN,
    "mcp-method": message.method!,
  };
  const name = message.method === "resources/read" ? params.uri : params.name;
  if (typeof name === "string") headers["mcp-name"] = /^[\x21-\x7E]+$/.test(name) ? name : sentinel(name);
  return { ...headers, ...extra };
}

/** POSTs a modern message (or `body` in its place, for text JSON.stringify cannot make). */
async function postModern(
  url: string,
  message: RpcMessage,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const init = {
    method: "POST",
    headers: modernHeaders(message, options.headers),
    body: options.body ?? JSON.stringify(message),
    signal: AbortSignal.timeout(HANG_GUARD_MS),
  };
  return toAnswer(await fetch(url, init));
}

async function postLegacy(url: string, message: unknown, session: string | undefined): Promise<Answer> {
  const headers: Record<string, string> = { ...POST_HEADERS, "mcp-protocol-version": LEGACY };
  if (session !== undefined) headers["mcp-session-id"] = session;
  const init = { method: "POST", headers, body: JSON.stringify(message), signal: AbortSignal.timeout(HANG_GUARD_MS) };
  return toAnswer(await fetch(url, init));
}

async function openLegacySession(url: string): Promise<string> {
  const initialize = {
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "bounds", version: "1" } },
  };
  const answer = await postLegacy(url, initialize, undefined);
  expect(answer.status, answer.text).toBe(200);
  const session = answer.headers.get("mcp-session-id")!;
  expect((await postLegacy(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
  return session;
}

/** `{"a":{"a":…1…}}`, `levels` objects deep. */
function nestedObjects(levels: number): string {
  return '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
}

/** The text of a message with the JSON `value` in place of the string "@nested". */
function withNested(message: RpcMessage, value: string): string {
  return JSON.stringify(message).replace('"@nested"', value);
}

function expectTooDeep(answer: Answer): void {
  const error = expectError(answer, 400, INVALID_PARAMS, new RegExp(`maxJsonDepth \\(${MAX_JSON_DEPTH} `));
  expect(single(answer).id).toBeNull();
  expect(error.data).toEqual({ maxJsonDepth: MAX_JSON_DEPTH });
}

/** A modern success's result. */
function resultOf(answer: Answer): Record<string, unknown> {
  expect(answer.status, answer.text).toBe(200);
  const body = single(answer);
  expect(body.error, answer.text).toBeUndefined();
  return body.result!;
}

function toolText(answer: Answer): string {
  return (resultOf(answer).content as { text: string }[])[0]!.text;
}

/** The server still serves a plain modern call. */
async function expectServing(url: string): Promise<void> {
  expect(toolText(await postModern(url, modern("tools/call", { name: "plain", arguments: {} })))).toBe("ok");
}

/**
 * How the cost of `run` grows from `size` to 4 × `size`: the best of a few runs of each, in this
 * process's CPU time (the server runs in it), as a ratio. CPU time, not wall time: a run descheduled
 * by the rest of a loaded machine (other test files, other work) once measured 20 for linear work.
 * Linear work gives about 4 (less, where the fixed cost of a request dominates); quadratic 16, cubic 64.
 */
async function growth(size: number, run: (size: number) => Promise<void>): Promise<number> {
  const best = async (n: number): Promise<number> => {
    let fastest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const began = process.cpuUsage();
      await run(n);
      const used = process.cpuUsage(began);
      fastest = Math.min(fastest, used.user + used.system);
    }
    return fastest;
  };
  await run(size); // warm up
  const small = await best(size);
  return (await best(4 * size)) / small;
}

/** The largest ratio accepted as linear: well under quadratic growth's 16, with room for a loaded box. */
const LINEAR = 10;
/** The largest growth over a baseline's growth (the same input without the walk under test) accepted as linear. */
const LINEAR_OVER_BASELINE = 2.5;

// ---------------------------------------------------------------------------------------------

describe.each(HOSTS)("client data bounds on %s", (host) => {
  let server: RunningHost;
  let shortUris: RunningHost;
  let url: string;
  beforeAll(async () => {
    server = await startHost(host, handlerFor());
    shortUris = await startHost(host, handlerFor(1000));
    url = server.url;
  });
  afterAll(async () => {
    await server.close();
    await shortUris.close();
  });

  describe("nesting deeper than maxJsonDepth: 400 -32602 before anything walks it", () => {
    it("100,000 levels in the arguments of a tool that asks for input (was: Node exited)", async () => {
      const message = modern("tools/call", { name: "ask", arguments: { extra: "@nested" } }, { elicitation: {} });
      expectTooDeep(await postModern(url, message, { body: withNested(message, nestedObjects(100_000)) }));
      // Arrays too.
      const arrays = "[".repeat(100_000) + "]".repeat(100_000);
      expectTooDeep(await postModern(url, message, { body: withNested(message, arrays) }));
      await expectServing(url);
    });

    it("5,000 levels next to a requestState (was: HTTP 500)", async () => {
      const first = modern("tools/call", { name: "ask", arguments: {} }, { elicitation: {} });
      const requestState = resultOf(await postModern(url, first)).requestState as string;
      const retry = modern(
        "tools/call",
        { name: "ask", arguments: { extra: "@nested" }, requestState, inputResponses: {} },
        { elicitation: {} },
      );
      expectTooDeep(await postModern(url, retry, { body: withNested(retry, nestedObjects(5000)) }));
      await expectServing(url);
    });

    it("5,000 levels in a legacy logging/setLevel level (was: HTTP 500)", async () => {
      const session = await openLegacySession(url);
      const setLevel = { jsonrpc: "2.0", id: nextId++, method: "logging/setLevel", params: { level: "@nested" } };
      const headers = { ...POST_HEADERS, "mcp-protocol-version": LEGACY, "mcp-session-id": session };
      const body = withNested(setLevel, nestedObjects(5000));
      expectTooDeep(await toAnswer(await fetch(url, { method: "POST", headers, body })));
      const ping = await postLegacy(url, { jsonrpc: "2.0", id: 7, method: "ping" }, session);
      expect(single(ping)).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    });

    it("5,000 levels in a value an Mcp-Param mismatch quotes (was: HTTP 500)", async () => {
      const message = modern("tools/call", { name: "tagged", arguments: { region: "@nested" } });
      const headers = { "mcp-param-region": "eu" };
      expectTooDeep(await postModern(url, message, { headers, body: withNested(message, nestedObjects(5000)) }));
      // Within the limit, the mismatch is answered and the nested value quoted by its kind only.
      const shallow = withNested(message, nestedObjects(50));
      const error = expectError(await postModern(url, message, { headers, body: shallow }), 400, HEADER_MISMATCH);
      expect(error.message).toBe(
        'Header mismatch: Mcp-Param-Region header value "eu" does not match body value an object',
      );
      await expectServing(url);
    });

    it("exactly maxJsonDepth levels (the whole message) pass; one more is refused", async () => {
      // message → params → arguments (3 levels), then the nesting inside arguments.extra.
      const message = modern("tools/call", { name: "plain", arguments: { extra: "@nested" } });
      const deepest = withNested(message, nestedObjects(MAX_JSON_DEPTH - 3));
      expect(toolText(await postModern(url, message, { body: deepest }))).toBe("ok");
      expectTooDeep(await postModern(url, message, { body: withNested(message, nestedObjects(MAX_JSON_DEPTH - 2)) }));
      const arrays = (levels: number): string => "[".repeat(levels) + "]".repeat(levels);
      expect(toolText(await postModern(url, message, { body: withNested(message, arrays(MAX_JSON_DEPTH - 3)) }))).toBe(
        "ok",
      );
      expectTooDeep(await postModern(url, message, { body: withNested(message, arrays(MAX_JSON_DEPTH - 2)) }));
    });

    it("braces that are not nesting pass: in strings, and wide arrays of objects", async () => {
      const inStrings = modern("tools/call", { name: "plain", arguments: { text: "{[".repeat(100_000) } });
      expect(toolText(await postModern(url, inStrings))).toBe("ok");
      const wide = modern("tools/call", {
        name: "plain",
        arguments: { list: Array.from({ length: 50_000 }, () => ({})) },
      });
      expect(toolText(await postModern(url, wide))).toBe("ok");
    });

    it("a sampled answer nested 100,000 levels deep is a tool error naming the depth", async () => {
      const nested = nestedObjects(100_000);
      const answer = { role: "assistant", model: "m", content: { type: "text", text: nested } };
      const message = modern(
        "tools/call",
        { name: "sampled", arguments: {}, inputResponses: { answer } },
        { sampling: {} },
      );
      const result = resultOf(await postModern(url, message));
      expect(result.isError, JSON.stringify(result).slice(0, 300)).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(/nested deeper than 64 levels/);
      await expectServing(url);
    });
  });

  describe("linear work on forged input", () => {
    it("a forged sampling answer against the code-fence scan (was: cubic, 2.3 KB blocked 2.8 s)", async () => {
      const forge = async (size: number): Promise<void> => {
        // An opening fence, then whitespace that never closes: the old RegExp tried every split of it.
        const text = "```" + " ".repeat(size) + "x";
        const answer = { role: "assistant", model: "m", content: { type: "text", text } };
        const message = modern(
          "tools/call",
          { name: "sampled", arguments: {}, inputResponses: { answer } },
          { sampling: {} },
        );
        const result = resultOf(await postModern(url, message));
        expect(result.isError).toBe(true);
        expect((result.content as { text: string }[])[0]!.text).toMatch(/The model's answer is not JSON/);
      };
      expect(await growth(200_000, forge)).toBeLessThan(LINEAR);
      // A well-formed fenced answer still reads.
      const fenced = { role: "assistant", model: "m", content: { type: "text", text: '```json\n{"a":1,"b":2}\n```' } };
      const good = modern(
        "tools/call",
        { name: "sampled", arguments: {}, inputResponses: { answer: fenced } },
        { sampling: {} },
      );
      expect(toolText(await postModern(url, good))).toBe("keys: 2");
    });

    it("URI templates of several shapes against the worst URI up to maxUriLength (was: 2 KB took 3.6 s)", async () => {
      const session = await openLegacySession(url);
      const read = async (uri: string): Promise<Answer> =>
        postLegacy(url, { jsonrpc: "2.0", id: nextId++, method: "resources/read", params: { uri } }, session);
      for (const shape of SHAPES) {
        const worst = (size: number): string =>
          shape.prefix + shape.unit.repeat((size - shape.prefix.length - 1) / shape.unit.length) + "/";
        const miss = async (size: number): Promise<void> => {
          const uri = worst(size).slice(0, size);
          expect(uri.length).toBeLessThanOrEqual(MAX_URI_LENGTH);
          const error = expectError(await read(uri), 200, -32002, /Resource not found/);
          expect(error.message.length).toBeLessThan(200);
        };
        expect(await growth(MAX_URI_LENGTH / 4, miss), shape.uriTemplate).toBeLessThan(LINEAR);
        // A URI of the cap's length that matches is read, with the variables as the greedy RegExp split them.
        const [head, tail] = shape.matching;
        const long = head! + "v".repeat(MAX_URI_LENGTH - head!.length - tail!.length) + tail!;
        const contents = resultOf(await read(long)).contents as { text: string }[];
        expect(Object.values(JSON.parse(contents[0]!.text) as object)[0]).toMatch(/^v+$/);
      }
      // One character over the cap: refused before any matching.
      const over = await read("tile://" + "1".repeat(MAX_URI_LENGTH - 7) + ".2.3");
      const error = expectError(over, 200, INVALID_PARAMS, /maxUriLength/);
      expect(error.data).toEqual({ limit: "maxUriLength", max: MAX_URI_LENGTH });
    });

    it("maxUriLength on modern reads and on completion refs", async () => {
      const cap = 1000;
      const uri = "tile://" + "1".repeat(cap - 7 - 4) + ".2.3";
      expect(uri.length).toBe(cap);
      const atCap = await postModern(shortUris.url, modern("resources/read", { uri }));
      expect(resultOf(atCap).contents).toBeDefined();
      const overCap = modern("resources/read", { uri: uri + "4" });
      const error = expectError(await postModern(shortUris.url, overCap), 200, INVALID_PARAMS, /maxUriLength/);
      expect(error.data).toEqual({ limit: "maxUriLength", max: cap });
      const complete = modern("completion/complete", {
        ref: { type: "ref/resource", uri: "x".repeat(cap + 1) },
        argument: { name: "z", value: "" },
      });
      const refused = expectError(await postModern(shortUris.url, complete), 200, INVALID_PARAMS, /maxUriLength/);
      expect(refused.data).toEqual({ limit: "maxUriLength", max: cap });
      await expectServing(shortUris.url);
    });

    it("uniqueItems over objects up to the body limit (was: quadratic, 228 KB took 14 s)", async () => {
      const callOf =
        (tool: string) =>
        async (size: number): Promise<void> => {
          const items = Array.from({ length: size }, (_, i) => ({ id: i, tags: ["a", "b"], nested: { n: i } }));
          const message = modern("tools/call", { name: tool, arguments: { items } });
          expect(toolText(await postModern(url, message))).toBe(`${size} items`);
        };
      // Against the same arrays without uniqueItems: a body of 1 MB costs more than 4 × one of 250 KB
      // to parse and collect (the bare growth measured 8 to 11.6), which is no uniqueItems cost.
      // Linear uniqueItems gives about 1; the quadratic one gave over 4.
      const baseline = await growth(6000, callOf("any_items"));
      expect((await growth(6000, callOf("unique"))) / baseline).toBeLessThan(LINEAR_OVER_BASELINE);
      // Equal as JSON: keys in another order, 2.0 written for 2.
      const message = modern("tools/call", { name: "unique", arguments: { items: "@nested" } });
      const body = withNested(message, '[{"a":1,"b":[2.0]},{"c":1},{"b":[2],"a":1}]');
      const result = resultOf(await postModern(url, message, { body }));
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(/Items at indexes 0 and 2 are equal/);
    });

    it("a recursive schema whose alternatives both descend, against a tree up to maxJsonDepth (was: 2^depth)", async () => {
      const call = async (levels: number): Promise<void> => {
        let node: Record<string, unknown> = { leaf: true };
        for (let i = 0; i < levels; i++) node = { branch: true, child: node };
        const message = modern("tools/call", { name: "tree", arguments: { root: node } });
        expect(toolText(await postModern(url, message))).toBe("ok");
      };
      // 15 and 60 levels (the message around it takes 4 more, within maxJsonDepth): 2^45 times the work before.
      expect(await growth(15, call)).toBeLessThan(LINEAR);
    });
  });

  describe("base64: one canonical spelling only", () => {
    /** The same base64(url) text with the last character's unused low bits set: decodes to the same bytes. */
    function sameBytes(text: string, unusedBits: number): string {
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
      const urlSafe = text.includes("-") || text.includes("_") || !text.endsWith("=");
      const all = alphabet + (urlSafe ? "-_" : "+/");
      const end = text.replace(/=+$/, "").length - 1;
      const changed = all[all.indexOf(text[end]!) | ((1 << unusedBits) - 1)]!;
      return text.slice(0, end) + changed + text.slice(end + 1);
    }

    it("a requestState whose sealed part is re-spelled with the same bytes gets -32602", async () => {
      // A state whose sealed part ends with unused bits (its length is not a multiple of 4): the
      // tool keeps `pad` in its state, which changes the sealed length, so a few paddings are tried.
      let requestState = "";
      let pad = "";
      for (; pad.length < 4; pad += "x") {
        const first = modern("tools/call", { name: "ask", arguments: { pad } }, { elicitation: {} });
        requestState = resultOf(await postModern(url, first)).requestState as string;
        if (requestState.split(".")[1]!.length % 4 !== 0) break;
      }
      const [version, sealed] = requestState.split(".") as [string, string];
      expect(sealed.length % 4).not.toBe(0);
      const retry = (state: string): RpcMessage =>
        modern(
          "tools/call",
          {
            name: "ask",
            arguments: { pad },
            requestState: state,
            inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
          },
          { elicitation: {} },
        );
      // The last character of the sealed part has 2 or 4 unused bits.
      const tampered = sameBytes(sealed, sealed.length % 4 === 2 ? 4 : 2);
      expect(Buffer.from(tampered, "base64url")).toEqual(Buffer.from(sealed, "base64url"));
      const state = `${version}.${tampered}`;
      expect(state).not.toBe(requestState);
      const error = expectError(await postModern(url, retry(state)), 200, INVALID_PARAMS);
      expect(error.message).toBe("Invalid or expired requestState");
      expect(toolText(await postModern(url, retry(requestState)))).toBe("hello Ada");
    });

    it("an Mcp-Param or Mcp-Name sentinel re-spelled, unpadded or with stray characters gets 400 -32020", async () => {
      const message = modern("tools/call", { name: "tagged", arguments: { region: "ab" } });
      const canonical = sentinel("ab");
      expect(canonical).toBe("=?base64?YWI=?=");
      expect(toolText(await postModern(url, message, { headers: { "mcp-param-region": canonical } }))).toBe("ok");
      expect(atob("YWJ=")).toBe("ab");
      for (const bad of [
        "=?base64?YWJ=?=",
        "=?base64?YWI?=",
        "=?base64?YW I=?=",
        "=?base64?YWI==?=",
        "=?base64?YWI=\t?=",
      ]) {
        const answer = await postModern(url, message, { headers: { "mcp-param-region": bad } });
        expect(expectError(answer, 400, HEADER_MISMATCH).message).toMatch(/invalid base64/);
      }
      // "sampled" is 7 bytes: its base64 ends with 4 unused bits.
      const call = modern("tools/call", { name: "sampled", arguments: {} }, { sampling: {} });
      expect(sentinel("sampled")).toBe("=?base64?c2FtcGxlZA==?=");
      expect(resultOf(await postModern(url, call, { headers: { "mcp-name": sentinel("sampled") } })).resultType).toBe(
        "input_required",
      );
      const renamed = await postModern(url, call, { headers: { "mcp-name": "=?base64?c2FtcGxlZB==?=" } });
      expect(expectError(renamed, 400, HEADER_MISMATCH).message).toMatch(/Mcp-Name header has an invalid base64/);
    });
  });

  describe("client values in error messages are quoted short", () => {
    it("header mismatches, unknown resources and templates, envelope errors", async () => {
      const long = "r".repeat(10_000);
      const mismatch = modern("tools/call", { name: "tagged", arguments: { region: long } });
      const header = expectError(
        await postModern(url, mismatch, { headers: { "mcp-param-region": `x${long}` } }),
        400,
        HEADER_MISMATCH,
      );
      expect(header.message.length).toBeLessThan(300);
      const named = modern("tools/call", { name: "plain", arguments: {} });
      const name = expectError(
        await postModern(url, named, { headers: { "mcp-name": `p${long}` } }),
        400,
        HEADER_MISMATCH,
      );
      expect(name.message.length).toBeLessThan(300);
      const unknown = modern("resources/read", { uri: `none://${"u".repeat(5000)}` });
      expect(expectError(await postModern(url, unknown), 200, INVALID_PARAMS).message.length).toBeLessThan(300);
      const completion = modern("completion/complete", {
        ref: { type: "ref/resource", uri: `none://${"u".repeat(10_000)}` },
        argument: { name: "z", value: "" },
      });
      expect(expectError(await postModern(url, completion), 200, INVALID_PARAMS).message.length).toBeLessThan(300);
      const envelope = modern("tools/call", { name: "plain", arguments: {} });
      const meta = { "io.modelcontextprotocol/protocolVersion": long };
      const body = JSON.stringify({ ...envelope, params: { ...envelope.params, _meta: meta } });
      const bad = await postModern(url, envelope, { body, headers: { "mcp-protocol-version": long } });
      expect(expectError(bad, 400, INVALID_PARAMS).message.length).toBeLessThan(300);
    });
  });
});
