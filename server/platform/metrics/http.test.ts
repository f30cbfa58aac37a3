import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { metricsEndpoint, timeRequest } from "./http";
import { createMetrics } from "./metrics";
import { routePatterns } from "./route-patterns";

const TOKEN = "a-metrics-token-of-enough-length";

/** The endpoint in front of an app whose every answer is its plain 404, as the top-level listener has it. */
async function serve(token: string | undefined) {
  const metrics = createMetrics();
  const scrape = metricsEndpoint({ registry: metrics.registry, token });
  const server = http.createServer((req, res) => {
    if (scrape(req, res)) return;
    timeRequest(metrics, req, res, () => "unmatched");
    res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    metrics,
    get: async (path: string, authorization?: string) => {
      const response = await fetch(`${base}${path}`, { headers: authorization ? { Authorization: authorization } : {} });
      return { status: response.status, type: response.headers.get("content-type"), cache: response.headers.get("cache-control"), body: await response.text() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("/metrics", () => {
  test("without METRICS_TOKEN there is no /metrics: even a bearer header gets the app's 404", async () => {
    const server = await serve(undefined);
    try {
      expect(await server.get("/metrics", "Bearer ")).toMatchObject({ status: 404, body: "Not found\n" });
      expect(await server.get("/metrics", `Bearer ${TOKEN}`)).toMatchObject({ status: 404, body: "Not found\n" });
    } finally {
      await server.close();
    }
  });

  test("a missing or wrong token gets the same 404 as an unknown address", async () => {
    const server = await serve(TOKEN);
    try {
      const unknown = await server.get("/no-such-page");
      for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`]) {
        expect(await server.get("/metrics", authorization)).toEqual(unknown);
      }
    } finally {
      await server.close();
    }
  });

  test("the right token gets Prometheus text, never cached, with the requests timed so far", async () => {
    const server = await serve(TOKEN);
    try {
      await server.get("/somewhere/123");
      const scraped = await server.get("/metrics", `Bearer ${TOKEN}`);
      expect(scraped.status).toBe(200);
      expect(scraped.type).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(scraped.cache).toBe("no-store");
      expect(scraped.body).toContain('sponsorgrid_http_request_duration_seconds_count{method="GET",status_class="4xx",route="unmatched"} 1');
      expect(scraped.body).toContain("process_cpu_user_seconds_total");
      // The raw path's id is in no label value (a sample's value may well hold the digits).
      expect(scraped.body).not.toMatch(/="[^"]*123[^"]*"/);
    } finally {
      await server.close();
    }
  });
});

describe("route patterns", () => {
  const patterns = routePatterns({
    routes: {
      root: { id: "root", path: "", module: {} as never },
      "routes/home": { id: "routes/home", parentId: "root", index: true, module: {} as never },
      "routes/opportunities/list": { id: "routes/opportunities/list", parentId: "root", path: "app/opportunities", module: {} as never },
      "routes/opportunities/new": { id: "routes/opportunities/new", parentId: "root", path: "app/opportunities/new", module: {} as never },
      "routes/opportunities/detail": { id: "routes/opportunities/detail", parentId: "root", path: "app/opportunities/:docId", module: {} as never },
      "routes/not-found": { id: "routes/not-found", parentId: "root", path: "*", module: {} as never },
    },
  });

  test("a request is named by the route that answers it, never by its address", () => {
    expect(patterns("/")).toBe("/");
    expect(patterns("/app/opportunities")).toBe("/app/opportunities");
    expect(patterns("/app/opportunities/new")).toBe("/app/opportunities/new");
    expect(patterns("/app/opportunities/9998765432_abcdef")).toBe("/app/opportunities/:docId");
    expect(patterns("/app/opportunities/9998765432_abcdef.data")).toBe("/app/opportunities/:docId");
    expect(patterns("/_root.data")).toBe("/");
    expect(patterns("/no/such/page")).toBe("/*");
  });

  test("what Express answers before React Router is named by its mount", () => {
    expect(patterns("/assets/entry.client-abc123.js")).toBe("/assets/*");
    expect(patterns("/api/functions/buildSponsorSession")).toBe("/api/functions/:name");
  });
});
