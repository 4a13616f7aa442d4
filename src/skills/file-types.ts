/**
 * How a skill's file goes on the wire: its type, guessed from its extension where the author gave
 * none, and whether its bytes are sent as text or as a base64 blob. Text only when the type is a
 * text type and the bytes are valid UTF-8, so that the text a client reads encodes back to exactly
 * the bytes the manifest's digest and size describe.
 */

/** Types by extension: what skills hold (instructions, references, scripts, templates, data). */
const BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ["md", "text/markdown"],
  ["markdown", "text/markdown"],
  ["txt", "text/plain"],
  ["py", "text/x-python"],
  ["sh", "text/x-shellscript"],
  ["js", "text/javascript"],
  ["mjs", "text/javascript"],
  ["ts", "text/x-typescript"],
  ["json", "application/json"],
  ["yaml", "application/yaml"],
  ["yml", "application/yaml"],
  ["toml", "application/toml"],
  ["xml", "application/xml"],
  ["html", "text/html"],
  ["css", "text/css"],
  ["csv", "text/csv"],
  ["svg", "image/svg+xml"],
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["gif", "image/gif"],
  ["webp", "image/webp"],
  ["pdf", "application/pdf"],
  ["zip", "application/zip"],
]);

/** The type of the file at `path`, from its extension; `application/octet-stream` when unknown. */
export function guessMimeType(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return (dot > 0 && BY_EXTENSION.get(name.slice(dot + 1).toLowerCase())) || "application/octet-stream";
}

/** Whether content of this type is text (sent as `text` when its bytes are UTF-8). */
export function isTextType(mimeType: string): boolean {
  const type = mimeType.split(";")[0]!.trim().toLowerCase();
  return (
    type.startsWith("text/") ||
    type.endsWith("+json") ||
    type.endsWith("+xml") ||
    ["application/json", "application/yaml", "application/toml", "application/xml", "application/javascript"].includes(
      type,
    )
  );
}

const encoder = new TextEncoder();
// fatal: bytes that are not UTF-8 throw rather than decode lossily; ignoreBOM: a leading BOM stays in the text.
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The bytes of content given as text or bytes. */
export function bytesOf(content: string | Uint8Array): Uint8Array {
  return typeof content === "string" ? encoder.encode(content) : content;
}

/**
 * What `resources/read` returns for these bytes: their text when the type is text and they are
 * UTF-8 (it encodes back to the same bytes), else the bytes themselves (a blob).
 */
export function servedContent(bytes: Uint8Array, mimeType: string): string | Uint8Array {
  if (!isTextType(mimeType)) return bytes;
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return bytes;
  }
}
