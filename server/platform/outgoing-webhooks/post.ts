import http from "node:http";
import https from "node:https";
import { pinnedLookup, resolveTarget, type Resolver, type WebhookTargets } from "./targets";

/** What the delivery log keeps of a response body (and all that is read of it). */
export const RESPONSE_BODY_LIMIT = 4096;

/** One attempt's answer: a response (any status), or why none came. */
export type PostOutcome = {
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
  error: string | null;
  /** The address itself is refused: no later attempt can succeed. */
  permanent?: boolean;
  durationMs: number;
};

export type PostOptions = {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole attempt: connecting, sending, the response and its (cut) body. */
  timeoutMs: number;
  targets: WebhookTargets;
  resolve?: Resolver;
  agents: Agents;
};

export type Agents = { http: http.Agent; https: https.Agent };

/**
 * Connections kept open between attempts to the same host (a busy endpoint gets its events
 * over a few sockets, not one handshake each). Idle ones close after 4 s, before the common
 * 5 s server keep-alive, so an attempt rarely meets a socket the server is closing. No cap on
 * sockets: the worker's lanes already bound the attempts under way, and a cap would make an
 * attempt wait for a socket inside its own timeout.
 */
export function createAgents(): Agents {
  const options = { keepAlive: true, timeout: 4_000 };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}

/**
 * POSTs one webhook. Redirects are not followed (a 3xx is the answer, and not a success: a
 * redirect could lead anywhere, past the address check), the body is read up to 4 KB and the
 * connection dropped after that, and nothing waits beyond `timeoutMs`. Never throws.
 */
export async function postWebhook({ url, headers, body, timeoutMs, targets, resolve, agents }: PostOptions): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = await resolveTarget(url, { targets, resolve });
  if (target.kind === "ERROR") return { status: null, headers: null, body: null, error: target.message, permanent: target.permanent, durationMs: elapsed() };
  const secure = target.url.protocol === "https:";
  const payload = Buffer.from(body, "utf8");

  return new Promise<PostOutcome>((resolveOutcome) => {
    let settled = false;
    const settle = (outcome: Omit<PostOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolveOutcome({ ...outcome, durationMs: elapsed() });
    };
    const request = (secure ? https : http).request(target.url, {
      method: "POST",
      agent: secure ? agents.https : agents.http,
      headers: { ...headers, "content-length": String(payload.length) },
      ...(target.address ? { lookup: pinnedLookup(target.address, target.family!) } : {}),
    });
    let answered: http.IncomingMessage | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const answer = (error: string | null) =>
      settle({
        status: answered?.statusCode ?? null,
        headers: answered ? flatHeaders(answered.headers) : null,
        body: answered ? Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString("utf8") : null,
        error,
      });
    const timer = setTimeout(() => {
      answer(`timed out after ${timeoutMs} ms`);
      request.destroy();
    }, timeoutMs);
    request.on("error", (error) => answer(error.message || String(error)));
    request.on("response", (response) => {
      answered = response;
      response.on("data", (chunk: Buffer) => {
        if (size >= RESPONSE_BODY_LIMIT) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_LIMIT) {
          // Enough for the log: the rest is not read (the socket goes with it).
          answer(null);
          response.destroy();
        }
      });
      response.on("end", () => answer(null));
      response.on("error", (error) => answer(error.message || "connection closed while reading the response"));
      response.on("aborted", () => answer("connection closed while reading the response"));
    });
    request.end(payload);
  });
}
