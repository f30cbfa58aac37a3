import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RequestCost } from "#server/platform/http/request-cost";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "#server/tools/seed/demo-accounts";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";
import { buildServerIfMissing } from "#tests/support/built-server";

/**
 * What a signed-in page costs the server, held to a budget: database statements, page renders and
 * payment provider calls per request, read from each request's access log line (the built server,
 * `node server.js`, on the demo data). Counts, unlike timings, do not move with a busy machine: when
 * a change makes a page cost more, this fails at that change. Lower a budget when a page gets
 * cheaper; raise one only with a reason (bench/README.md, "Signed-in pages").
 *
 * Each page is asked twice and the second answer counts: the first also fills what the process
 * keeps between requests (the tag catalogue, a page's rendered document).
 */
const BUDGETS: Record<string, RequestCost> = {
  // The session (with the header's counts) in one statement; the creator's home: pages with their
  // readiness (and whether they offer tiers), earnings by month (tips, and released deals beside
  // them), the latest supporters, what is held in booked deals, daily views, the members' figures.
  // The same data: no render.
  "/app": { statements: 8, renders: 0, providerCalls: 0 },
  // The session; the opportunities with the viewer's hearts and the total.
  "/app/opportunities": { statements: 2, renders: 0, providerCalls: 0 },
  // The session; the pages with their readiness.
  "/app/account/bizbio": { statements: 2, renders: 1, providerCalls: 0 },
  "/app/account/sponsors/payments": { statements: 3, renders: 1, providerCalls: 0 },
  // The session; stale checkouts expired; one page of payments with their refunds and disputes.
  "/app/account/supporters": { statements: 3, renders: 1, providerCalls: 0 },
};

let server: ServerProcess;
let dataDir: string;
let cookie = "";

beforeAll(async () => {
  buildServerIfMissing();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-request-cost-"));
  server = await startServerProcess({ DATA_DIR: dataDir, HOST: "127.0.0.1" }, { startTimeoutMs: 180_000 });
  const signIn = await fetch(`${server.url}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams({ email: DEMO_ACCOUNTS.creator.email, password: DEMO_PASSWORD, redirectTo: "/app" }),
  });
  cookie = signIn.headers
    .getSetCookie()
    .map((value) => value.split(";")[0]!)
    .join("; ");
  expect(cookie, "the demo creator could not sign in").not.toBe("");
}, 240_000);

afterAll(async () => {
  await server?.stop("SIGTERM");
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The cost on the access log line of the request that answered with `id` (written when it finished). */
async function costOf(id: string): Promise<RequestCost> {
  for (let tries = 0; tries < 50; tries++) {
    const line = server
      .output()
      .split("\n")
      .find((text) => text.includes(`"requestId":"${id}"`) && text.includes('"responseTime"'));
    if (line) return (JSON.parse(line) as { cost: RequestCost }).cost;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no access log line for request ${id}`);
}

async function visit(pagePath: string): Promise<RequestCost> {
  const response = await fetch(`${server.url}${pagePath}`, { headers: { cookie, "accept-encoding": "br" }, redirect: "manual" });
  await response.arrayBuffer();
  expect(response.status, `${pagePath} did not answer the signed-in creator`).toBe(200);
  return costOf(response.headers.get("x-request-id")!);
}

test.each(Object.entries(BUDGETS))("a signed-in %s costs no more than its budget", async (pagePath, budget) => {
  await visit(pagePath);
  const cost = await visit(pagePath);
  expect(cost, `${pagePath} cost more than its budget: ${JSON.stringify(cost)}`).toEqual({
    statements: Math.min(cost.statements, budget.statements),
    renders: Math.min(cost.renders, budget.renders),
    providerCalls: Math.min(cost.providerCalls, budget.providerCalls),
  });
  // A count that reads 0 everywhere would pass any budget: each page makes at least its session's statement.
  expect(cost.statements).toBeGreaterThan(0);
});

test("a file sent as it is costs nothing, though the process's background work goes on beside it", async () => {
  const response = await fetch(`${server.url}/robots.txt`);
  await response.text();
  expect(await costOf(response.headers.get("x-request-id")!)).toEqual({ statements: 0, renders: 0, providerCalls: 0 });
});
