// A client in its own process (so that its reads race the server as a remote client's do): POSTs
// `count` bodies of `size` bytes with a Content-Length, one after another, and prints how each
// ended as JSON: `{ "413": 10 }`, or the error a reset gave.
import { request } from "node:http";

const [url, size, count] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const outcomes = {};
for (let i = 0; i < count; i++) {
  const outcome = await new Promise((resolve) => {
    const headers = { "content-type": "application/json", "content-length": String(size) };
    const req = request(url, { method: "POST", headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        resolve(body.includes("maxBodyBytes") ? String(res.statusCode) : `${res.statusCode} ${body}`);
      });
      res.on("error", (error) => resolve(`response error ${error.message}`));
    });
    req.on("error", (error) => resolve(`error ${error.message}`));
    req.end(Buffer.alloc(size, 0x20));
  });
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
}
console.log(JSON.stringify(outcomes));
