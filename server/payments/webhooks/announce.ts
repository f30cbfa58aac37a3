import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { bioPages, user } from "#server/db/schema";
import type { MailMessage } from "#server/email/mailer";
import { sponsorReceiptEmail } from "#server/email/messages";
import { formatMoney } from "#server/payments/money";
import { sendNotification, type NotificationDeps } from "#server/notifications/send";
import type { LockedSession } from "./sessions";
import type { WebhookDeps } from "./types";

/** Where the owner reads one payment (SPEC §2.2 payment Info). */
export const paymentInfoPath = (sessionId: string) => `/app/account/sponsors/payments/${sessionId}`;

const from = (session: LockedSession) => session.sponsorEmail ?? "a sponsor";

/**
 * The sponsor's receipt, rendered BEFORE the transaction (rendering takes
 * ~10 ms a mail, too long to hold the session's row lock for); the handler
 * stores it with the transaction only if it records the payment. The owner's
 * mail is the "Payment received" alert's own, by their preference (ADR 0025).
 */
export async function composePaymentMails(db: Db, session: LockedSession, gross: number, currency: string, deps: WebhookDeps): Promise<MailMessage[]> {
  const amount = formatMoney(gross, currency);
  const [owner] = session.posterUid ? await db.select({ name: user.name }).from(user).where(eq(user.id, session.posterUid)) : [];
  const [page] = session.bioPageId
    ? await db.select({ name: bioPages.name, ending: bioPages.customEnding }).from(bioPages).where(eq(bioPages.id, session.bioPageId))
    : [];
  const payeeName = page?.name ?? owner?.name ?? deps.site.appName;
  const site = { appName: deps.site.appName, supportEmail: deps.site.supportEmail };
  const facts = { site, amount, payeeName, reference: session.id, message: session.message };
  const mails: MailMessage[] = [];
  if (session.sponsorEmail) {
    const url = page ? `${deps.site.bioOrigin}/${page.ending}` : deps.site.publicOrigin;
    mails.push(await sponsorReceiptEmail({ ...facts, to: session.sponsorEmail, url }));
  }
  return mails;
}

/**
 * "Payment received" for the owner (mailed if they want it) and the sponsor's receipt, all with the
 * transaction that recorded the payment: if it rolls back none of them
 * exists, and a redelivered event finds the payment recorded and announces
 * nothing again.
 */
export async function announcePayment(tx: Db, session: LockedSession, gross: number, currency: string, mails: MailMessage[], deps: WebhookDeps): Promise<void> {
  for (const mail of mails) await deps.mailer.sendWithin(tx, mail);
  // The owner deleted their account: the payment is recorded, nobody is told.
  if (!session.posterUid) return;
  await sendNotification(tx, {
    uid: session.posterUid,
    kind: "payment-received",
    title: "Payment received",
    message: `You received ${formatMoney(gross, currency)} from ${from(session)}${session.kind === "tip" ? " as a tip" : " for a sponsorship"}.`,
    buttonText: "View payment",
    buttonDestination: paymentInfoPath(session.id),
  }, deps);
}

export async function announceRefund(tx: Db, session: LockedSession, amountRefunded: number, currency: string, deps: NotificationDeps): Promise<void> {
  if (!session.posterUid) return;
  await sendNotification(tx, {
    uid: session.posterUid,
    kind: "refund-done",
    title: "Refund done",
    message: `The ${formatMoney(amountRefunded, currency)} payment from ${from(session)} was refunded.`,
    buttonText: "View payment",
    buttonDestination: paymentInfoPath(session.id),
  }, deps);
}

export async function announceDispute(tx: Db, session: LockedSession, amount: number, currency: string, deps: NotificationDeps): Promise<void> {
  if (!session.posterUid) return;
  await sendNotification(tx, {
    uid: session.posterUid,
    kind: "dispute-opened",
    title: "Dispute opened",
    message: `The sponsor's bank disputes the ${formatMoney(amount, currency)} payment from ${from(session)}; the amount is held until the dispute is settled.`,
    buttonText: "View payment",
    buttonDestination: paymentInfoPath(session.id),
  }, deps);
}

export async function announcePayoutsEnabled(tx: Db, uid: string, deps: NotificationDeps): Promise<void> {
  await sendNotification(tx, {
    uid,
    kind: "payouts-enabled",
    title: "Payouts enabled",
    message: "Your payout account is ready: sponsors can now pay you from your bio pages.",
    buttonText: "Your bio pages",
    buttonDestination: "/app/account/bizbio",
  }, deps);
}
