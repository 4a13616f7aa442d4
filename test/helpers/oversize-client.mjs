// A client in its own process (so that its reads race the server as a remote client's do) that
// keeps writing its whole body whatever the server answers, as a client that does not look at the
// answer before it has sent everything: POSTs `count` bodies of `size` bytes one after another,
// declared (`length`) or chunked, in one write (`chunkBytes` 0) or in pieces of `chunkBytes` every
// `delayMs`, each on a new connection that asks for `Connection: close` (`close`) or keep-alive
// (`keep-alive`), and prints how each ended as JSON: `{ "413": 20 }`, or the error that came instead.
import { Agent, request } from "node:http";

const [url, size, count, framing, chunkBytes, delayMs] = [
  process.argv[2],
  Number(process.argv[3]),
  Number(process.argv[4]),
  process.argv[5],
  Number(process.argv[6]),
  Number(process.argv[7]),
];
const keepAlive = process.argv[8] === "keep-alive";

function post() {
  return new Promise((resolve) => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    if (framing === "length") headers["content-length"] = String(size);
    else headers["transfer-encoding"] = "chunked";
    let outcome;
    const settle = (value) => {
      outcome ??= value;
      if (agent) agent.destroy();
      resolve(outcome);
    };
    // A new connection for each body either way; a keep-alive agent's is closed once answered.
    const agent = keepAlive ? new Agent({ keepAlive: true }) : false;
    const req = request(url, { method: "POST", headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        settle(
          body.includes('"code":-32000') && body.includes("maxBodyBytes")
            ? String(res.statusCode)
            : `${res.statusCode} ${body}`,
        );
      });
      res.on("error", (error) => settle(`response error ${error.code ?? error.message}`));
    });
    // Errors after the answer (the server closing while the rest is still being written) are expected.
    req.on("error", (error) => settle(`error ${error.code ?? error.message}`));
    req.on("socket", (socket) => socket.on("error", () => {}));
    if (chunkBytes === 0) {
      req.end(Buffer.alloc(size, 0x20));
      return;
    }
    const piece = Buffer.alloc(chunkBytes, 0x20);
    let written = 0;
    const writeMore = () => {
      if (req.destroyed) return;
      const next = Math.min(chunkBytes, size - written);
      written += next;
      if (written >= size) req.end(piece.subarray(0, next));
      else {
        req.write(piece.subarray(0, next));
        setTimeout(writeMore, delayMs);
      }
    };
    writeMore();
  });
}

const outcomes = {};
for (let i = 0; i < count; i++) {
  const outcome = await post();
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
}
console.log(JSON.stringify(outcomes));
