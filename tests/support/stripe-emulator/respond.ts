import type http from "node:http";

/** Small HTTP helpers shared by the emulator's API, hosted pages and control API. */

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${Math.random().toString(36).slice(2, 16)}`, ...headers });
  res.end(JSON.stringify(body, null, 2));
}

export function sendHtml(res: http.ServerResponse, html: string, status = 200) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" }).end(html);
}

export function redirect(res: http.ServerResponse, location: string) {
  res.writeHead(303, { Location: location }).end();
}
