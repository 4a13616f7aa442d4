/**
 * The README's 30-second example tool, served here too, so that the README's "Try it with curl" commands answer
 * the same against the playground as against that example's server.mjs.
 */
import { z } from "zod";

export default defineMcpTool({
  description: "Current weather for a city",
  input: z.object({ city: z.string() }),
  output: z.object({ city: z.string(), celsius: z.number() }),
  annotations: { readOnlyHint: true },
  handler: async (event, { city }) => {
    await event.context.mcp.progress(1, 2, "looking up");
    return { city, celsius: 21 };
  },
});
