/** A resource template over the note book, with listing and completion. */
import { completeNoteId, notes } from "../../notes/book";

export default defineMcpResource({
  uriTemplate: "playground://notes/{id}",
  description: "A note of the playground's note book",
  mimeType: "text/plain",
  // Concrete notes appear in resources/list next to the fixed resources.
  list: () => Object.entries(notes).map(([id, { title }]) => ({ uri: `playground://notes/${id}`, name: title })),
  complete: { id: completeNoteId },
  handler: (_event, { id }) => {
    const found = notes[id];
    // Nothing here: the client gets "resource not found" with its era's code (-32002 legacy, -32602 modern).
    if (!found) return undefined;
    return `${found.title}\n\n${found.body}`;
  },
});
