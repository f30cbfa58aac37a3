// The browsers' side of the notification-stream benchmark: N event streams to one server, in a
// process of their own so that their memory is not counted as the server's. Talks to run.ts over IPC.
import http from "node:http";

const [port, total] = [Number(process.argv[2]), Number(process.argv[3])];
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const now = () => performance.timeOrigin + performance.now();

// For each count, how many streams have seen it and when the last one did.
const seen = new Map();
let connected = 0;
let ended = 0;
const requests = [];

function record(count) {
  const entry = seen.get(count) ?? { streams: 0, first: now(), last: 0 };
  entry.streams++;
  entry.last = now();
  seen.set(count, entry);
  if (entry.streams === total) process.send({ kind: "all", count, first: entry.first, last: entry.last });
}

for (let i = 0; i < total; i++) {
  const request = http.get({ host: "127.0.0.1", port, path: "/api/notifications/stream", agent, headers: { accept: "text/event-stream" } }, (response) => {
    if (response.statusCode !== 200) {
      process.send({ kind: "error", message: `status ${response.statusCode}` });
      return;
    }
    response.setEncoding("utf8");
    let buffer = "";
    let first = true;
    response.on("data", (chunk) => {
      buffer += chunk;
      let split;
      while ((split = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, split);
        buffer = buffer.slice(split + 2);
        const match = /^event: unread\ndata: (.*)$/m.exec(block);
        if (!match) continue;
        if (first) {
          first = false;
          if (++connected === total) process.send({ kind: "connected" });
        }
        record(JSON.parse(match[1]).count);
      }
    });
    response.on("end", () => {
      if (++ended === total) process.send({ kind: "ended" });
    });
  });
  request.on("error", (error) => process.send({ kind: "error", message: String(error) }));
  requests.push(request);
}

process.on("message", (message) => {
  if (message === "alive") process.send({ kind: "alive", ended, connected });
  if (message === "close") {
    for (const request of requests) request.destroy();
    agent.destroy();
    process.exit(0);
  }
});
