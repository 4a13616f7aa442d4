/** A prompt that embeds a note, with a completable argument. */
import { embeddedResource } from "mcp-h3";
import { completeNoteId } from "../../notes/book";

export default defineMcpPrompt({
  title: "Review a note",
  description: "Asks the model to review one note, embedding the note itself",
  arguments: [{ name: "id", description: "The note's id", required: true }],
  complete: { id: completeNoteId },
  handler: async (event, { id }) => {
    // readResource goes through the server's own resources, template matching included.
    const { contents } = await event.context.mcp.readResource(`playground://notes/${id}`);
    return [
      { role: "user", content: { type: "text", text: "Review this note. Is anything unclear or missing?" } },
      ...contents.map((item) => ({ role: "user" as const, content: embeddedResource(item) })),
    ];
  },
});
