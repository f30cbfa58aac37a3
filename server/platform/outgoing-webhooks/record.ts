import { and, eq, sql } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { Logger } from "pino";
import type { Db } from "#server/platform/db/client";
import { user, webhookAttempts, webhookDeliveries, webhookEndpoints } from "#server/platform/db/schema";
import type { Mailer } from "#server/platform/email/mailer";
import type { EmailSite } from "#server/platform/email/messages";
import type { ClaimedDelivery } from "./claim";
import { endpointDisabledEmail } from "./disabled-mail";
import type { PostOutcome } from "./post";
import type { DisableThresholds } from "./retry";

type RecordDeps = {
  db: Db;
  logger: Logger;
  mail: { mailer: Pick<Mailer, "sendWithin">; site: EmailSite & { publicOrigin: string } };
  disableAfter: DisableThresholds;
  finishedAt: Date;
};

export type Attempt = Pick<ClaimedDelivery, "delivery" | "endpoint"> & {
  headers: Record<string, string>;
  body: string;
  at: Date;
  outcome: PostOutcome;
  result: "delivered" | "retry" | "failed";
  retryInMs: number | null;
};

/**
 * Records one attempt for the delivery log (`webhook_attempts`) with the delivery's new state:
 * a success in one statement (the common case), a failure in one transaction with the
 * endpoint's health, which also disables an endpoint that failed long enough and queues its
 * owner's mail. Fenced by the lease: a process that lost its claim (it stalled past the lease
 * and another one retook the row) records its attempt but changes no state.
 */
export async function recordAttempt({ db, logger, mail, disableAfter, finishedAt }: RecordDeps, { delivery, endpoint, headers, body, at, outcome, result, retryInMs }: Attempt): Promise<void> {
  const attempt = {
    id: `wa_${nanoid(20)}`,
    deliveryId: delivery.id,
    attemptedAt: at,
    requestHeaders: headers,
    requestBody: body,
    responseStatus: outcome.status,
    responseHeaders: outcome.headers,
    responseBody: outcome.body,
    error: outcome.error,
    durationMs: outcome.durationMs,
  };
  const held = and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.leasedUntil, delivery.leasedUntil));
  if (result === "delivered") {
    // The common case in one statement: the attempt and the delivery's new state (atomic as one).
    const attemptValues = db.insert(webhookAttempts).values(attempt);
    const done = db.update(webhookDeliveries).set({ status: "delivered", finishedAt, leasedUntil: null }).where(held).returning({ id: webhookDeliveries.id });
    await db.execute(sql`with attempt as (${attemptValues.getSQL()}) ${done.getSQL()}`);
    // The health as read with the claim: a success clears failures only where there were some.
    if (endpoint.consecutiveFailures > 0 || endpoint.failingSince) {
      await db
        .update(webhookEndpoints)
        .set({ consecutiveFailures: 0, failingSince: null })
        .where(and(eq(webhookEndpoints.id, endpoint.id), sql`(${webhookEndpoints.consecutiveFailures} <> 0 or ${webhookEndpoints.failingSince} is not null)`));
    }
    return;
  }
  await db.transaction(async (tx) => {
    await tx.insert(webhookAttempts).values(attempt);
    const state = result === "failed" ? { status: "failed" as const, finishedAt, leasedUntil: null } : { nextAttemptAt: new Date(finishedAt.getTime() + retryInMs!), leasedUntil: null };
    const updated = await tx.update(webhookDeliveries).set(state).where(held).returning({ id: webhookDeliveries.id });
    // Another process retook it after our lease ran out: its own attempt decides.
    if (updated.length === 0) return;
    const [health] = await tx
      .update(webhookEndpoints)
      .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`, failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at})` })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning();
    if (!health || health.disabledAt || health.consecutiveFailures < disableAfter.failures) return;
    if (finishedAt.getTime() - health.failingSince!.getTime() < disableAfter.failingForMs) return;
    const hours = Math.round((finishedAt.getTime() - health.failingSince!.getTime()) / 3_600_000);
    const last = outcome.error ?? `HTTP ${outcome.status}`;
    const reason = `${health.consecutiveFailures} attempts in a row failed over ${hours} hours (the last: ${last}).`;
    await tx.update(webhookEndpoints).set({ disabledAt: finishedAt, disabledReason: reason, updatedAt: finishedAt }).where(eq(webhookEndpoints.id, endpoint.id));
    const [owner] = await tx.select({ email: user.email }).from(user).where(eq(user.id, health.uid));
    if (owner) await mail.mailer.sendWithin(tx, await endpointDisabledEmail({ to: owner.email, site: mail.site, endpoint: health, reason }));
    logger.warn({ endpointId: endpoint.id, uid: health.uid, failures: health.consecutiveFailures }, "webhook endpoint disabled after failing for too long; its owner is told by mail");
  });
}
