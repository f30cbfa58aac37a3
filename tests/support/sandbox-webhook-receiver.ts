import http from "node:http";
import type { AddressInfo } from "node:net";
import type { PaymentEvent } from "#server/providers/payments/events";
import type { ParsedWebhook } from "#server/providers/payments/port";
import { SIGNATURE_HEADER } from "#server/providers/payments/sandbox/signing";

/**
 * A tiny webhook endpoint for tests: checks each delivery with `parse` (a
 * provider's parseWebhook), keeps what it accepted, and can be told to fail
 * the next deliveries with a 500.
 */
export async function startTestReceiver(parse: (raw: Buffer, header: string | undefined) => ParsedWebhook) {
  const received: PaymentEvent[] = [];
  const refused: string[] = [];
  let failNext = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (failNext > 0) {
        failNext -= 1;
        res.writeHead(500).end();
        return;
      }
      const parsed = parse(Buffer.concat(chunks), req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined);
      if (parsed.kind === "ERROR") {
        refused.push(parsed.message);
        res.writeHead(400).end();
        return;
      }
      if (parsed.event) received.push(parsed.event);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/payments/webhooks/sandbox`,
    received,
    refused,
    failNextDeliveries(count: number) {
      failNext = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
