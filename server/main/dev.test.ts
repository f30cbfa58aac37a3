import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";

// `npm run dev`'s entry, as its own process on a new embedded database: it answers the pages and
// serves Vite's client, which the pages load for hot module reload.
let dev: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-dev-server-"));
  // Vite starts, then the database migrates and seeds: on two busy cores that takes minutes.
  dev = await startServerProcess({ DATA_DIR: dataDir }, { args: ["--import", "tsx", "server/main/dev.ts"], startTimeoutMs: 240_000 });
}, 300_000);

afterAll(async () => {
  try {
    // 0: the production shutdown ran to its end (the database closed), not a signal's default exit.
    expect(await dev?.stop()).toBe(0);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a page is rendered by the current build and loads the hot-reload runtime", { timeout: 120_000 }, async () => {
  const response = await fetch(`${dev.url}/signin`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await response.text();
  expect(html).toContain("<h1");
  expect(html).toContain("virtual:react-router/inject-hmr-runtime");
  // The production security headers, unrelaxed: the HMR socket is on the page's own origin.
  expect(response.headers.get("content-security-policy")).toContain("connect-src 'self';");
});

test("Vite serves its client and the app's modules", { timeout: 120_000 }, async () => {
  const client = await fetch(`${dev.url}/@vite/client`);
  expect(client.status).toBe(200);
  expect(client.headers.get("content-type")).toMatch(/javascript/);
  expect(await client.text()).toContain("vite-hmr");
  const route = await fetch(`${dev.url}/app/routes/auth/signin.tsx`);
  expect(route.status).toBe(200);
  expect(await route.text()).toContain("Sign in");
});
