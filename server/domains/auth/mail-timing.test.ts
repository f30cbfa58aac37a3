import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDatabase } from "#tests/support/databases";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink";
import type { Captcha } from "#server/platform/captcha/captcha";
import { loadConfig } from "#server/platform/config";
import { createMailer, type Mailer } from "#server/platform/email/mailer";
import { createAuth } from "./auth";
import { requestPasswordReset, signUpWithPassword, type IdentityDeps } from "./flows";
import { handleAuthTasks } from "./tasks";
import { createTaskQueue, type TaskQueue } from "#server/platform/jobs/task-queue";

// Long enough that a flow which waited for the mail server could not have returned before it
// answered, whatever the load on the machine: the tests assert order, not milliseconds.
const SMTP_DELAY_MS = 5_000;
const alwaysHuman: Captcha = { provider: "altcha", siteKey: null, createChallenge: async () => ({}), verify: async () => true };

/**
 * A mail server that takes 5 s per message must neither slow the forms down nor tell an
 * observer whether an account exists (a reset for a real account sends mail, for an unknown
 * one it does not).
 */
describe("reset and verification mail leave the request path", () => {
  const database = migratedDatabase("pglite");
  let smtp: SmtpSink;
  let mailer: Mailer;
  let tasks: TaskQueue;
  let deps: IdentityDeps & { tasks: TaskQueue };

  beforeAll(async () => {
    smtp = await startSmtpSink({ delayMs: SMTP_DELAY_MS });
    const config = loadConfig({});
    const logger = pino({ level: "silent" });
    mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: "Grid <no-reply@grid.example>", logger });
    const auth = createAuth({ db: database.db, config, secret: "a-test-secret-that-is-long-enough-123", mailer, logger });
    // Started, as in the app: the reset runs on the queue's own loop after the answer.
    tasks = createTaskQueue({ db: database.db, logger });
    handleAuthTasks(tasks, auth);
    tasks.start();
    deps = { db: database.db, auth, captcha: alwaysHuman, config, tasks };
  });
  afterAll(async () => {
    await tasks.close();
    await mailer.close();
    await smtp.close();
  });

  const mailTo = (email: string) => smtp.messages.filter((mail) => mail.to.includes(email));

  it("signs up without waiting for the verification mail, which still arrives", async () => {
    const result = await signUpWithPassword(deps, { name: "", email: "real@example.com", password: "correct horse 1", type: null, captcha: "ok", ip: "203.0.113.1", headers: new Headers() });
    expect(result.kind).toBe("SUCCESS");
    // Answered before the mail server had taken the message.
    expect(mailTo("real@example.com")).toEqual([]);
    expect((await smtp.waitForMail("real@example.com", { subject: /Verify/, timeoutMs: 20_000 })).links[0]).toContain("/app/verify?oobCode=");
  });

  it("answers a reset request for a real and an unknown account alike, long before the slow server takes the mail", async () => {
    await smtp.waitForMail("real@example.com", { subject: /Verify/, timeoutMs: 20_000 });
    for (let i = 0; i < 3; i++) {
      for (const [kind, email] of [["real", "real@example.com"], ["unknown", `nobody${i}@example.com`]] as const) {
        const result = await requestPasswordReset(deps, { email, ip: `198.51.100.${i * 2 + (kind === "real" ? 0 : 1)}` });
        expect(result).toEqual({ kind: "SUCCESS" });
        // Whether or not the account exists, the answer came before any reset mail reached the server.
        expect(mailTo("real@example.com").filter((mail) => /Reset/.test(mail.subject))).toEqual([]);
      }
    }
    // The mail for the real account does arrive, later.
    expect((await smtp.waitForMail("real@example.com", { subject: /Reset/, timeoutMs: 20_000 })).links[0]).toContain("/reset-password?token=");
  });
});
