import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { disputes, sponsorSessions } from "#server/platform/db/schema";
import { paymentInfoPath } from "#server/domains/payments/notices/payment-notices";
import type { LockedSession } from "#server/domains/payments/checkout/locked-sessions";
import { formatMoney } from "#server/domains/payments/ledger/money";
import type { NotificationInput } from "#server/domains/notifications/send";
import type { MoneyEventOf } from "#server/domains/payments/ledger/money-events";
import type { FanOutDeps } from "#server/domains/payments/notices/notice-deps";

/** A dispute as its one writer keeps it (server/domains/payments/disputes/disputes.ts). */
type DisputeRow = typeof disputes.$inferSelect;

/** "December 3, 2026": the day the evidence is due, as the creator reads it. */
export function formatDeadline(date: Date): string {
  return date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
}

/** The line a payment card shows under its "Disputed" badge. */
export function disputeLine(dispute: Pick<DisputeRow, "status" | "evidenceDueBy">): { open: boolean; text: string } {
  if (dispute.status === "won") return { open: false, text: "Dispute won" };
  if (dispute.status === "lost") return { open: false, text: "Dispute lost" };
  const due = dispute.evidenceDueBy ? `evidence due by ${formatDeadline(dispute.evidenceDueBy)}` : "evidence requested";
  return { open: true, text: `Disputed: ${due}${dispute.status === "under_review" ? " (under review)" : ""}` };
}

const sponsor = (session: LockedSession) => session.sponsorEmail ?? "a sponsor";

/**
 * What the creator should do, in words they can act on. Payments are
 * destination charges (ADR 0021): the dispute is on the platform's provider
 * account, so support answers the bank with the creator's evidence.
 */
export function disputeGuidance(dispute: Pick<DisputeRow, "evidenceDueBy">, supportEmail: string): string {
  const by = dispute.evidenceDueBy ? ` by ${formatDeadline(dispute.evidenceDueBy)}` : " as soon as you can";
  return (
    `Evidence is due${by}. Send ${supportEmail} what shows the sponsorship was delivered: links to the posts or videos, ` +
    "your messages with the sponsor, and any agreement or invoice; we answer the bank with it. " +
    "Do not refund this payment now: the amount is already held, and a refund would return it twice."
  );
}

/** The session and dispute a dispute fact is about, as the writer's transaction left them. */
async function disputeOf(tx: Db, event: { sessionId: string; disputeId: string }): Promise<{ session: LockedSession; dispute: DisputeRow } | null> {
  const [session] = await tx.select().from(sponsorSessions).where(eq(sponsorSessions.id, event.sessionId));
  const [dispute] = await tx.select().from(disputes).where(eq(disputes.id, event.disputeId));
  return session && dispute ? { session, dispute } : null;
}

export async function disputeOpened(tx: Db, event: MoneyEventOf<"dispute.opened">, deps: FanOutDeps): Promise<NotificationInput | null> {
  const found = await disputeOf(tx, event);
  // The owner deleted their account: the dispute is recorded, nobody is told.
  if (!found?.session.posterUid) return null;
  const { session, dispute } = found;
  return {
    uid: found.session.posterUid,
    kind: "dispute-opened",
    title: "Dispute opened",
    message: `The sponsor's bank disputes the ${formatMoney(dispute.amount, dispute.currency)} payment from ${sponsor(session)}; the amount is held until the dispute is settled. ${disputeGuidance(dispute, deps.site.supportEmail)}`,
    buttonText: "View payment",
    buttonDestination: paymentInfoPath(session.id),
  };
}

export async function disputeClosed(tx: Db, event: MoneyEventOf<"dispute.closed">, deps: FanOutDeps): Promise<NotificationInput | null> {
  const found = await disputeOf(tx, event);
  if (!found?.session.posterUid) return null;
  const { session, dispute } = found;
  const amount = formatMoney(dispute.amount, dispute.currency);
  const won = dispute.status === "won";
  return {
    uid: found.session.posterUid,
    kind: "dispute-closed",
    title: won ? "Dispute won" : "Dispute lost",
    message: won
      ? `The bank decided the ${amount} payment from ${sponsor(session)} for you: the amount is yours again.`
      : `The bank decided the ${amount} payment from ${sponsor(session)} for the sponsor: the amount went back to them. Questions: ${deps.site.supportEmail}.`,
    buttonText: "View payment",
    buttonDestination: paymentInfoPath(session.id),
  };
}
