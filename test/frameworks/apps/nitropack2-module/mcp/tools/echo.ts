// The file, as is: no import of defineMcpTool, the name from the file.
import { z } from "zod";
export default defineMcpTool({
  description: "Echo the text back",
  input: z.object({ text: z.string() }),
  handler: (event, { text }) => text,
});
