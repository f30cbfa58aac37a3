import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { afterAll, beforeAll, expect, test } from "vitest";
import { webhookSigningKey } from "#server/providers/payments/sandbox/signing";
import { freePort, startServerProcess, type ServerProcess } from "#tests/support/server-process";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink";
import { buildServerIfMissing } from "#tests/support/built-server";

/**
 * The operator's log, read whole: the built server (`node server.js`) runs a sign-up, a sign-in,
 * a password reset by mail, a sandbox card payment and its webhook delivery, the bio host and the
 * test and metrics endpoints at LOG_LEVEL=debug, and every line it wrote is then checked: JSON,
 * the request's id on the lines a request caused, and none of the secrets that passed through.
 */
const SECRETS = {
  SESSION_SECRET: "log-test-session-secret-7d1f0c9a2b4e6f8a1c3e5d7b",
  METRICS_TOKEN: "log-test-metrics-token-5e2a9b7c3d1f",
  TEST_ROUTES_SECRET: "log-test-routes-secret-8c4e2a6b0d9f",
};
const PASSWORD = "Correct-horse-battery-93";
const NEW_PASSWORD = "Staple-lantern-orchid-41";
const CARD = "4242424242424242";
const EMAIL = "log-test-creator@example.com";
const BIO_HOST = "bio.localhost";
const PROXY_ID = "edge-proxy:0f3c2b9a81d4";

let server: ServerProcess;
let smtp: SmtpSink;
let dataDir: string;
let stdout = "";
let port: number;
let lastBody = "";
/** Every X-Request-Id a response of ours carried, with what it was. */
const answered: { id: string; what: string }[] = [];
/** Secret values seen during the run (tokens from mail, the session cookie): none may be logged. */
const seen: Record<string, string> = {};

beforeAll(async () => {
  buildServerIfMissing();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-request-logs-"));
  smtp = await startSmtpSink();
  port = await freePort();
  server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      BIO_ORIGIN: `http://${BIO_HOST}:${port}`,
      LOG_LEVEL: "debug",
      PAYMENT_PROVIDER: "sandbox",
      SMTP_URL: smtp.url,
      ENABLE_TEST_ROUTES: "true",
      // The test is the proxy: it may name its requests.
      TRUST_PROXY: "loopback",
      ALTCHA_MAX_NUMBER: "1000",
      ...SECRETS,
    },
    { startTimeoutMs: 180_000 },
  );
  server.child.stdout!.on("data", (chunk) => (stdout += chunk));
}, 400_000);

afterAll(async () => {
  await server?.stop("SIGTERM");
  await smtp?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A request as a browser on our own origin sends it; its id is remembered. */
async function call(what: string, pathname: string, init: RequestInit & { form?: Record<string, string> } = {}): Promise<Response> {
  const { form, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    headers.set("origin", `http://localhost:${port}`);
  }
  const response = await fetch(`http://localhost:${port}${pathname}`, {
    redirect: "manual",
    ...rest,
    method: form ? "POST" : rest.method,
    headers,
    body: form ? new URLSearchParams(form) : rest.body,
  });
  lastBody = await response.text();
  const id = response.headers.get("x-request-id");
  expect(id, `${what} answered without X-Request-Id`).toBeTruthy();
  answered.push({ id: id!, what });
  return response;
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");

async function solvedCaptcha(): Promise<string> {
  const challengeResponse = await fetch(`http://localhost:${port}/api/captcha/challenge`);
  const challenge = (await challengeResponse.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString("base64");
}

/** The values of the cookies a response set (the session's above all): secrets the log may not hold. */
function remember(what: string, response: Response): number {
  const values = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!.split("=").slice(1).join("="))
    .filter((value) => value.length > 16);
  values.forEach((value, i) => (seen[`${what} ${i}`] = value));
  return values.length;
}

const linkIn = (links: string[], pattern: RegExp) => {
  const link = links.find((candidate) => pattern.test(candidate));
  expect(link, `no link matching ${pattern} in ${links.join(" ")}`).toBeTruthy();
  return new URL(link!);
};

test("a run's log: JSON lines, each request's id on its lines, and no secret anywhere", { timeout: 300_000 }, async () => {
  // Sign up (with the spam check solved), and follow the verification link from the mail.
  const signUp = await call("sign up", "/signup", {
    form: { intent: "signup", name: "Log Test", email: EMAIL, password: PASSWORD, captcha: await solvedCaptcha(), type: "creator", redirectTo: "/app" },
  });
  expect(signUp.status).toBe(302);
  remember("sign-up cookie", signUp);
  const verifyMail = await smtp.waitForMail(EMAIL, { timeoutMs: 30_000 });
  const verifyLink = linkIn(verifyMail.links, /oobCode=/);
  seen.verificationToken = verifyLink.searchParams.get("oobCode")!;
  await call("verify email", `${verifyLink.pathname}${verifyLink.search}`, { headers: { cookie: cookiesOf(signUp) } });

  // Sign in with the password.
  const signIn = await call("sign in", "/signin", { form: { intent: "signin", email: EMAIL, password: PASSWORD, redirectTo: "/app" } });
  expect(signIn.status).toBe(302);
  const session = cookiesOf(signIn);
  expect(remember("session cookie", signIn)).toBeGreaterThan(0);

  // Ask for a reset link, open it, choose a new password with it.
  const resetAsked = await call("reset request", "/signin", { form: { intent: "reset", email: EMAIL } });
  expect(resetAsked.status).toBe(200);
  const resetMail = await smtp.waitForMail(EMAIL, { timeoutMs: 30_000, subject: /reset/i });
  const resetLink = linkIn(resetMail.links, /reset-password\?token=/);
  seen.resetToken = resetLink.searchParams.get("token")!;
  await call("reset page", `${resetLink.pathname}${resetLink.search}`);
  const reset = await call("new password", `${resetLink.pathname}${resetLink.search}`, { form: { token: seen.resetToken, password: NEW_PASSWORD, confirm: NEW_PASSWORD } });
  expect(reset.status).toBeLessThan(500);

  // A tip to the demo creator, paid on the sandbox's card form; the sandbox then delivers its webhook to us.
  const checkout = await call("tip checkout", "/app/payments/checkout?page=mayamakes&kind=tip", { form: { amount: "10", sponsorEmail: "tipper@example.com", message: "Thanks" } });
  expect(checkout.status, lastBody.replace(/<[^>]+>/g, " ").slice(-3000)).toBe(303);
  const payUrl = new URL(checkout.headers.get("location")!, `http://localhost:${port}`);
  const paid = await call("card payment", payUrl.pathname, {
    headers: { cookie: cookiesOf(checkout) },
    form: { email: "tipper@example.com", cardNumber: CARD, expiry: "12 / 34", cvc: "739", postalCode: "94107" },
  });
  expect(paid.status).toBe(302);
  await expect.poll(() => stdout.includes('"msg":"payment event received"'), { timeout: 30_000 }).toBe(true);

  // A proxy's id is kept; the bio host (answered before Express) gets an id too; secrets in headers.
  const proxied = await call("named by the proxy", "/about", { headers: { "x-request-id": PROXY_ID } });
  expect(proxied.headers.get("x-request-id")).toBe(PROXY_ID);
  const hostile = await call("hostile id", "/signin", { headers: { "x-request-id": '{"level":60}' } });
  expect(hostile.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  // A guest page answered from memory (no access line: nginx logs those) still gets its own id.
  const guestIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const page = await fetch(`http://localhost:${port}/`);
    await page.arrayBuffer();
    guestIds.push(page.headers.get("x-request-id") ?? "");
    if (i === 2) expect(page.headers.get("x-guest-cache")).toBe("hit");
  }
  expect(new Set(guestIds).size).toBe(3);
  // fetch may not set Host: the bio host is asked as a browser would, by its name.
  const bio = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get({ host: "127.0.0.1", port, path: "/mayamakes", headers: { host: `${BIO_HOST}:${port}` } }, (res) => res.resume().on("end", () => resolve(res))).on("error", reject),
  );
  expect(bio.statusCode).toBe(200);
  expect(bio.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  // The scrape is answered before Express (no access line, like a probe) but carries its id too.
  const scrape = await fetch(`http://localhost:${port}/metrics`, { headers: { authorization: `Bearer ${SECRETS.METRICS_TOKEN}` } });
  expect(scrape.status).toBe(200);
  expect((await scrape.text()).length).toBeGreaterThan(1000);
  expect(scrape.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  await call("test hook", "/__test/nothing-here", { headers: { "x-test-routes-secret": SECRETS.TEST_ROUTES_SECRET, cookie: session } });

  // Delivery of the reset's mail over SMTP and the sandbox's worker finish; then the process stops and flushes.
  expect(await server.stop("SIGTERM")).toBe(0);

  const text = stdout;
  const lines = text.split("\n").filter(Boolean);
  expect(lines.length).toBeGreaterThan(20);
  const parsed = lines.map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown> & { req?: { id?: string } };
    } catch {
      throw new Error(`not a JSON line: ${line}`);
    }
  });

  // Each response's id is on its access line; the ones that did domain work (mail, webhook) carry it further.
  const ids = new Set(answered.map((a) => a.id));
  for (const { id, what } of answered) {
    expect(
      parsed.some((line) => line.req?.id === id && line.requestId === id),
      `${what}: no access line with ${id}`,
    ).toBe(true);
  }
  const linesOf = (what: string) => {
    const id = answered.find((a) => a.what === what)!.id;
    return parsed.filter((line) => line.requestId === id).map((line) => line.msg);
  };
  expect(linesOf("sign up")).toContain("email queued");
  expect(linesOf("reset request")).toContain("email queued");
  expect(linesOf("named by the proxy").length).toBeGreaterThan(0);
  // The webhook delivery was the sandbox worker's own request: its lines name that request.
  const received = parsed.find((line) => line.msg === "payment event received")!;
  expect(received.requestId).toEqual(expect.any(String));
  expect(parsed.some((line) => line.req?.id === received.requestId)).toBe(true);
  // Mail goes out later, outside any request: the outbox row's id joins its delivery to the request that queued it.
  const queued = parsed.filter((line) => line.msg === "email queued" && ids.has(String(line.requestId)));
  const sent = parsed.filter((line) => line.msg === "email sent over SMTP");
  expect(queued.length).toBeGreaterThanOrEqual(2);
  for (const line of queued) expect(sent.map((s) => s.mailId)).toContain(line.mailId);

  // Lines without a request id are the process's own work: start, workers, shutdown.
  const background = parsed.filter((line) => line.requestId === undefined).map((line) => String(line.msg));
  const requestOnly = /^(GET|POST|HEAD) |payment event received|email queued|callable function failed|unhandled request error/;
  expect(background.filter((msg) => requestOnly.test(msg))).toEqual([]);

  const forbidden: Record<string, string> = { ...SECRETS, PASSWORD, NEW_PASSWORD, CARD, CARD_SPACED: "4242 4242 4242 4242", webhookKey: webhookSigningKey(SECRETS.SESSION_SECRET), ...seen };
  for (const [name, value] of Object.entries(forbidden)) {
    expect(value.length, name).toBeGreaterThan(8);
    expect(text.includes(value), `${name} is in the log`).toBe(false);
    expect(text.includes(encodeURIComponent(value)), `${name} (URL-encoded) is in the log`).toBe(false);
  }
});
