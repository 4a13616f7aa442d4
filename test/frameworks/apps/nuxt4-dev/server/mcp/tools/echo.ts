import { z } from "zod";
export default defineMcpTool({
  description: "Echo the text back",
  input: z.object({ text: z.string() }),
  handler: (event, { text }) => `echo: ${text}`,
});
