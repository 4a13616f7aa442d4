/** The text of a result, for assertions: what a test compares most often. */

interface TextPart {
  type?: string;
  text?: string;
}

/**
 * The text of a tool result (its `text` content parts), a prompt (its messages' text) or a read
 * resource (its text contents), joined with newlines.
 *
 * @example
 * expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
 */
export function textOf(result: {
  content?: readonly TextPart[] | unknown;
  contents?: readonly (TextPart | { blob: string })[];
  messages?: readonly { content: TextPart }[];
}): string {
  const parts: readonly TextPart[] = Array.isArray(result.content)
    ? (result.content as TextPart[])
    : ((result.contents as readonly TextPart[] | undefined) ??
      result.messages?.map((message) => message.content) ??
      []);
  return parts
    .filter((part) => typeof part.text === "string" && (part.type === undefined || part.type === "text"))
    .map((part) => part.text)
    .join("\n");
}
