import http from "node:http";
import type { AddressInfo } from "node:net";

/** What the receiver does with one request. */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | "hang" | "reset";

export type Receipt = { path: string; headers: Record<string, string>; body: string; answer: ReceiverAnswer; at: number };

/**
 * A webhook receiver on 127.0.0.1: `answer` decides each request's fate (a status, a hang that
 * outlasts the sender's timeout, a connection reset); every request is recorded with its answer.
 */
export async function startWebhookReceiver(answer: (path: string, headers: Record<string, string>, body: string) => ReceiverAnswer) {
  const receipts: Receipt[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : String(value)]));
      const body = Buffer.concat(chunks).toString("utf8");
      const path = request.url ?? "/";
      const decided = answer(path, headers, body);
      receipts.push({ path, headers, body, answer: decided, at: Date.now() });
      if (decided === "reset") request.socket.resetAndDestroy();
      else if (decided === "hang") setTimeout(() => request.socket.destroy(), 2_000).unref();
      else response.writeHead(decided.status, { "content-type": "text/plain", ...decided.headers }).end(decided.body ?? "ok");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    receipts,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
