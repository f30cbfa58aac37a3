import type { SponsorSessionKind } from "#server/platform/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { consumeRateLimit, rateLimitKey } from "#server/platform/abuse/rate-limit";
import { CHECKOUT_RATE_LIMITS } from "#server/platform/abuse/rules";
import type { Db } from "#server/platform/db/client";
import { bioPages, sponsorSessions, user } from "#server/platform/db/schema";
import type { MailMessage } from "#server/platform/email/mailer";
import { sponsorReceiptEmail } from "#server/platform/email/messages";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { PRIVATE_SUPPORTER, supporterHref } from "#isomorphic/supporters";
import type { NotificationInput } from "#server/domains/notifications/send";
import type { MoneyEventOf } from "#server/domains/payments/ledger/money-events";
import type { FanOutDeps } from "#server/domains/payments/notices/notice-deps";
import type { LockedSession } from "#server/domains/payments/checkout/locked-sessions";
import type { WebhookDeps } from "#server/domains/payments/notices/notice-deps";

/** Where the owner reads one payment (SPEC §2.2 payment Info). */
export const paymentInfoPath = (sessionId: string) => `/app/account/sponsors/payments/${sessionId}`;

/** A name typed by a stranger goes into a mail's subject: long ones are cut, so the amount stays in sight. */
const NAME_IN_NOTICE = 60;

/**
 * Who paid, as a notification says it. Notifications leave the app (mail, the API, webhook
 * endpoints a creator may feed into a public stream alert), so they name the supporter only as
 * the public wall would: the name they gave, "A private supporter" when they asked to stay
 * private, "Someone" without a name. Never the email, which was typed for a receipt. The creator
 * sees everything on Supporters, one click away. `within` a sentence: "a private supporter", "someone".
 */
export function supporterInNotice(session: { supporterName: string | null; private: boolean }, within = false): string {
  const lower = (words: string) => (within ? words.replace(/^./, (c) => c.toLowerCase()) : words);
  if (session.private) return lower(PRIVATE_SUPPORTER);
  const name = session.supporterName?.replace(/\s+/g, " ").trim();
  if (!name) return lower("Someone");
  return name.length > NAME_IN_NOTICE ? `${name.slice(0, NAME_IN_NOTICE - 1).trimEnd()}…` : name;
}

export type PaymentNoticeFacts = { kind: SponsorSessionKind; amount: string; supporterName: string | null; private: boolean; pageName: string | null };

/** "Maya tipped you $25.00": the amount and who paid, first thing in the list and the mail's subject. */
export function paymentReceivedWords(facts: PaymentNoticeFacts): { title: string; message: string } {
  const who = supporterInNotice(facts);
  const title = {
    tip: `${who} tipped you ${facts.amount}`,
    sponsorship: `${who} paid you ${facts.amount} for a sponsorship`,
    membership: `${who} paid you ${facts.amount} for a membership`,
  }[facts.kind];
  const where = facts.pageName ? `A ${facts.kind} through ${facts.pageName}. ` : "";
  const rest = facts.private
    ? "They asked to keep their support private: their name is on Supporters only, and your public page doesn't show it."
    : "Their message, Refund and the CSV export are on Supporters.";
  return { title, message: `${where}${rest}` };
}

/** "The $25.00 tip from Maya was refunded." */
export function refundDoneMessage(facts: Omit<PaymentNoticeFacts, "pageName">): string {
  return `The ${facts.amount} ${facts.kind} from ${supporterInNotice(facts, true)} was refunded.`;
}

/**
 * The sponsor's receipt, rendered BEFORE the transaction (rendering takes
 * ~10 ms a mail, too long to hold the session's row lock for); the handler
 * stores it with the transaction only if it records the payment. The owner's
 * mail is the "Payment received" notification's own, by their preference (ADR 0025).
 *
 * The receipt goes to `receiptTo`, the address the payer gave the provider's checkout, not the one
 * typed into our form (which only asks for a receipt, and fills the checkout's field): the provider's page is where a payer confirms it. It repeats the payer's
 * message only when that address is the signed-in sponsor's own verified one, so a receipt is no
 * channel for words to a stranger's mailbox.
 */
export async function composePaymentMails(
  db: Db,
  session: LockedSession,
  { gross, currency, receiptTo }: { gross: number; currency: string; receiptTo: string | null },
  deps: WebhookDeps,
): Promise<MailMessage[]> {
  // No address typed on our form: the payer asked for no receipt (SPEC §5 makes it optional).
  if (!session.sponsorEmail || !receiptTo) return [];
  const amount = formatMoney(gross, currency);
  const [owner] = session.posterUid ? await db.select({ name: user.name }).from(user).where(eq(user.id, session.posterUid)) : [];
  const [page] = session.bioPageId
    ? await db.select({ name: bioPages.name, ending: bioPages.customEnding }).from(bioPages).where(eq(bioPages.id, session.bioPageId))
    : [];
  const payeeName = page?.name ?? owner?.name ?? deps.site.appName;
  const site = { appName: deps.site.appName, supportEmail: deps.site.supportEmail };
  const url = page ? `${deps.site.bioOrigin}/${page.ending}` : deps.site.publicOrigin;
  const message = (await isSponsorsVerifiedEmail(db, session.sponsorUid, receiptTo)) ? session.message : null;
  return [await sponsorReceiptEmail({ site, amount, payeeName, reference: session.id, paidAt: new Date(), message, url, to: receiptTo })];
}

/** Whether `email` is the signed-in sponsor's own verified address. */
async function isSponsorsVerifiedEmail(db: Db, sponsorUid: string | null, email: string): Promise<boolean> {
  if (!sponsorUid) return false;
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.id, sponsorUid), eq(user.emailVerified, true), sql`lower(${user.email}) = lower(${email})`));
  return row !== undefined;
}

/**
 * Receipts one address may get (CHECKOUT_RATE_LIMITS.receiptsPerRecipient):
 * beyond that the payment is recorded and announced to the owner as ever,
 * and the receipt is left out, so nobody can aim a stream of them at a stranger.
 */
async function receiptAllowed(tx: Db, to: string): Promise<boolean> {
  const result = await consumeRateLimit(tx, rateLimitKey("receipts:to", to.trim().toLowerCase()), CHECKOUT_RATE_LIMITS.receiptsPerRecipient);
  return result.allowed;
}

/**
 * The sponsor's receipts rendered before the transaction, less those whose address had all the
 * receipts it may get: the payment is recorded and announced to the owner as ever.
 */
export async function allowedReceipts(tx: Db, event: MoneyEventOf<"payment.settled">, deps: FanOutDeps, prepared: readonly MailMessage[]): Promise<MailMessage[]> {
  const allowed: MailMessage[] = [];
  for (const mail of prepared) {
    if (mail.meta?.kind === "sponsor-receipt" && !(await receiptAllowed(tx, mail.to))) {
      deps.logger?.warn({ sessionId: event.sessionId }, "sponsor receipt not sent: its address had all the receipts it may get this hour");
      continue;
    }
    allowed.push(mail);
  }
  return allowed;
}

/** The session a payment fact is about (its row is locked by the writer's transaction). */
async function sessionOf(tx: Db, sessionId: string): Promise<LockedSession | null> {
  const [row] = await tx.select().from(sponsorSessions).where(eq(sponsorSessions.id, sessionId));
  return row ?? null;
}

/**
 * A "Payment received" notification for the owner (mailed if they want it), saying the amount and who paid, and
 * leading to the payment's row on Supporters; nobody when they deleted their account, and none for a
 * membership's period (told once, by its membership fact).
 */
export async function paymentReceived(tx: Db, event: MoneyEventOf<"payment.settled">): Promise<NotificationInput | null> {
  const session = await sessionOf(tx, event.sessionId);
  if (!session?.posterUid) return null;
  // A membership's paid period: its membership.created / .renewed fact tells the creator, with the tier.
  if (session.kind === "membership") return null;
  const [page] = session.bioPageId ? await tx.select({ name: bioPages.name }).from(bioPages).where(eq(bioPages.id, session.bioPageId)) : [];
  const words = paymentReceivedWords({ ...session, amount: formatMoney(event.gross, event.currency), pageName: page?.name ?? null });
  return {
    uid: session.posterUid,
    kind: "payment-received",
    ...words,
    buttonText: "See it on Supporters",
    buttonDestination: supporterHref(session.id),
  };
}

export async function refundDone(tx: Db, event: MoneyEventOf<"payment.refunded">): Promise<NotificationInput | null> {
  const session = await sessionOf(tx, event.sessionId);
  if (!session?.posterUid) return null;
  return {
    uid: session.posterUid,
    kind: "refund-done",
    title: "Refund done",
    message: refundDoneMessage({ ...session, amount: formatMoney(event.amount, event.currency) }),
    buttonText: "View payment",
    buttonDestination: paymentInfoPath(session.id),
  };
}

export async function payoutsEnabled(_tx: Db, event: MoneyEventOf<"payouts.enabled">): Promise<NotificationInput> {
  return {
    uid: event.uid,
    kind: "payouts-enabled",
    title: "Payouts enabled",
    message: "Your payout account is ready: sponsors can now pay you from your bio pages.",
    buttonText: "Your bio pages",
    buttonDestination: "/app/account/bizbio",
  };
}
