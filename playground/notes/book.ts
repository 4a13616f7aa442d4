/** A tiny in-memory note book behind the `playground://notes/{id}` template and the `review_note` prompt. */
export const notes: Record<string, { title: string; body: string }> = {
  "1": { title: "Groceries", body: "Milk, bread, coffee." },
  "2": { title: "Release", body: "Run `npm test`, then tag v0.1.0." },
  "3": { title: "Idea", body: "Serve MCP from every H3 app." },
  "12": { title: "Meeting", body: "Thursday 10:00, room 12." },
};

/** Note ids starting with what the user typed so far: shared by the template and the prompt. */
export function completeNoteId(typed: string): string[] {
  return Object.keys(notes).filter((id) => id.startsWith(typed));
}
