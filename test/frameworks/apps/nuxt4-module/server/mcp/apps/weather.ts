import { useStorage } from "nitropack/runtime";
export default defineMcpApp({
  description: "Shows the forecast for a city",
  handler: () => ({ content: [{ type: "text", text: "Oslo: 21 °C" }], structuredContent: { celsius: 21 } }),
  view: { html: () => useStorage("assets:server").getItem<string>("weather.html") },
});
