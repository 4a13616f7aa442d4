/** Type-checked only: event.context.mcp has the library's type in an ordinary nitro 3 route. */
import { defineHandler } from "nitro/h3";

export default defineHandler((event) => {
  const era: "legacy" | "modern" | undefined = event.context.mcp?.era;
  return { era };
});
