import { z } from "zod";
export default defineMcpTool({
  description: "Adds two numbers",
  input: z.object({ a: z.number(), b: z.number() }),
  handler: (event, { a, b }) => String(a + b),
});
