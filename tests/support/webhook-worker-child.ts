/**
 * A process of its own running the outgoing webhook worker (a test kills it with SIGKILL
 * mid-way): `tsx tests/support/webhook-worker-child.ts <database url> <session secret> <options json>`.
 * Prints "started" once the worker runs.
 */
import pino from "pino";
import { openPostgres } from "#server/platform/db/client";
import { createMailer } from "#server/platform/email/mailer";
import { createWebhookWorker, type WebhookWorkerOptions } from "#server/platform/outgoing-webhooks/worker";

const [url, sessionSecret, options] = process.argv.slice(2) as [string, string, string];
const database = await openPostgres(url);
const logger = pino({ level: "silent" });
const worker = createWebhookWorker({
  db: database.db,
  sessionSecret,
  logger,
  targets: "anywhere",
  mail: { mailer: createMailer({ db: database.db, from: "child@sponsorgrid.example", logger }), site: { appName: "Sponsorgrid", supportEmail: "s@sponsorgrid.example", publicOrigin: "http://localhost" } },
  ...(JSON.parse(options) as Partial<WebhookWorkerOptions>),
});
worker.start();
process.stdout.write("started\n");
