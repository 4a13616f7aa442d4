/** Type-checked only: event.context.mcp has the library's type in an ordinary Nitro route. */
export default defineEventHandler((event) => {
  const era: "legacy" | "modern" | undefined = event.context.mcp?.era;
  return { era };
});
