import { expect, test } from "@playwright/test";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";

// These start their own server processes; run them one at a time.
test.describe.configure({ mode: "serial" });

let dataDir: string;
const running: ServerProcess[] = [];

test.beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-e2e-http-"));
});
test.afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const MB = 1024 * 1024;

/** Resident memory of a process, from the kernel. */
function rssOf(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB$/m);
  return Number(line![1]) * 1024;
}

type Upload = { status: number | "error"; body: string; sentBytes: number };

/**
 * Posts up to `total` bytes of a sign-in form as fast as the server takes them, chunked or with
 * its Content-Length announced; stops sending as soon as the answer comes, as a browser does.
 */
function upload(url: string, total: number, { announce }: { announce: boolean }): Promise<Upload> {
  return new Promise((resolve) => {
    const piece = Buffer.from(`password=${"x".repeat(64 * 1024 - 10)}&`);
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "text/html" };
    if (announce) headers["content-length"] = String(total);
    const request = http.request(`${url}/signin`, { method: "POST", headers, agent: false });
    let sent = 0;
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      const done = () => {
        resolve({ status: response.statusCode!, body, sentBytes: sent });
        request.destroy();
      };
      response.on("end", done);
      response.on("error", done);
    });
    request.on("error", () => {
      if (!answered) resolve({ status: "error", body: "", sentBytes: sent });
    });
    const pump = () => {
      while (!answered && sent < total) {
        sent += piece.length;
        if (!request.write(piece)) return void request.once("drain", pump);
      }
      if (!answered) request.end();
    };
    pump();
  });
}

test("8 concurrent 100 MB uploads are refused with 413 while the server's memory stays flat", async () => {
  test.setTimeout(180_000);
  const server = await startServerProcess({ DATA_DIR: dataDir });
  running.push(server);
  const pid = server.child.pid!;

  // Warm up the paths the uploads take, so that what is measured is the uploads.
  for (const announce of [false, true]) await Promise.all(Array.from({ length: 8 }, () => upload(server.url, 4 * MB, { announce })));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);

  const uploads = await Promise.all([
    ...Array.from({ length: 8 }, () => upload(server.url, 100 * MB, { announce: false })),
    ...Array.from({ length: 8 }, () => upload(server.url, 100 * MB, { announce: true })),
  ]);
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));

  for (const answer of uploads) {
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("The request body is larger than 128 KB");
  }
  const grownMb = (peak - before) / MB;
  console.log(`RSS before ${(before / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB (+${grownMb.toFixed(1)} MB); sent before the answer: ${uploads.map((u) => (u.sentBytes / MB).toFixed(1)).join(", ")} MB`);
  expect(grownMb).toBeLessThan(16);

  // The server is unharmed and still reads forms that fit.
  const signIn = await fetch(`${server.url}/signin`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "intent=signin&email=nobody%40e2e.example&password=wrong-password-1",
  });
  expect(signIn.status).not.toBe(413);
  expect(signIn.status).toBeLessThan(500);
});

test("the server refuses to start with test routes on when it runs for real", async () => {
  const server = await startServerProcess(
    { DATA_DIR: dataDir, PUBLIC_ORIGIN: "https://sponsorgrid.example", ENABLE_TEST_ROUTES: "true", TEST_ROUTES_SECRET: "a-secret-the-suite-would-send" },
    { expectExit: true },
  );
  running.push(server);
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("ENABLE_TEST_ROUTES must not be set when the server runs for real");
});

test("TRUST_PROXY=true stops the start and asks for a hop count or addresses", async () => {
  const server = await startServerProcess({ DATA_DIR: dataDir, TRUST_PROXY: "true" }, { expectExit: true });
  running.push(server);
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("TRUST_PROXY no longer accepts true");
});
