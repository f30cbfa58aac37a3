import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Metrics } from "./metrics";

export const METRICS_PATH = "/metrics";

/**
 * `GET /metrics` on the app host, for Prometheus, with `Authorization: Bearer $METRICS_TOKEN`.
 * Anything else (no header, a wrong token, no token configured at all) falls through to the
 * app, which answers its ordinary 404: an unauthorised caller cannot tell the endpoint exists
 * (ADR 0041). Returns false when the request is not an authorised scrape.
 */
export function metricsEndpoint({ registry, token }: { registry: Metrics["registry"]; token: string | undefined }) {
  // Hashes of equal length, so the comparison takes the same time whatever the guess.
  const expected = token ? digest(`Bearer ${token}`) : null;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!expected || req.method !== "GET" || pathOf(req.url) !== METRICS_PATH) return false;
    const given = req.headers.authorization;
    if (typeof given !== "string" || !crypto.timingSafeEqual(digest(given), expected)) return false;
    registry.metrics().then(
      (text) => {
        res.writeHead(200, ["Content-Type", registry.contentType, "Cache-Control", "no-store", "X-Content-Type-Options", "nosniff"]);
        res.end(text);
      },
      (error: unknown) => {
        res.writeHead(500, ["Content-Type", "text/plain; charset=utf-8", "Cache-Control", "no-store"]);
        res.end(`metrics could not be collected: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    );
    return true;
  };
}

function digest(value: string): Buffer {
  return crypto.createHash("sha256").update(value).digest();
}

export function pathOf(url: string | undefined): string {
  const end = url?.indexOf("?") ?? -1;
  return end === -1 ? (url ?? "/") : url!.slice(0, end);
}

/** 200 → "2xx": a bounded label set. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/**
 * Times every request from the top-level listener to the response's end; `route` is asked
 * once the response is done, so handlers below may name the route they answered by (a fixed
 * label, or a route pattern — never the raw path, which would make one series per address).
 */
export function timeRequest(
  metrics: Pick<Metrics, "http">,
  req: IncomingMessage,
  res: ServerResponse,
  route: () => string | Promise<string>,
): void {
  const started = performance.now();
  const done = () => {
    res.off("finish", done);
    res.off("close", done);
    const seconds = (performance.now() - started) / 1000;
    const labels = { method: methodLabel(req.method), status_class: res.writableFinished ? statusClass(res.statusCode) : "aborted" };
    const named = route();
    if (typeof named === "string") metrics.http.requestDuration.observe({ ...labels, route: named }, seconds);
    else named.then((name) => metrics.http.requestDuration.observe({ ...labels, route: name }, seconds), () => {});
  };
  res.once("finish", done);
  res.once("close", done);
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function methodLabel(method: string | undefined): string {
  return method && METHODS.has(method) ? method : "other";
}
