// The admin endpoint's own "echo": a name the default endpoint also gives, checked per endpoint.
import { z } from "zod";
export default defineMcpTool({
  description: "Echo the text back, marked as the admin endpoint's",
  input: z.object({ text: z.string() }),
  handler: (event, { text }) => `admin: ${text}`,
});
