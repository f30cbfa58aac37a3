import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { sponsorSessions } from "#server/db/schema";

/** The longest any provider keeps a checkout open (the sandbox's and Stripe's maximum, 24 hours). */
export const LONGEST_CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * A pending sponsor session whose checkout the provider has closed becomes
 * "expired", whether or not the provider's
 * `checkout.expired` event ever arrived (a webhook endpoint set up without
 * it, an event given up on). Run lazily, at the start of the reads that show
 * sessions to the person they belong to (the owner's list and payment info,
 * the sponsor's My Payments): that costs one indexed UPDATE of their own rows,
 * usually of none, needs no timer in any process, holds with any number of
 * processes and either provider, and whatever reads the status sees it right.
 *
 * Only a checkout nobody finished is expired: one with a payment intent was
 * completed with a delayed method and is settled by its own events. A payment
 * that still arrives later is recorded anyway (its status is derived from the
 * ledger, server/payments/ledger.ts). A row without a known expiry (the
 * process stopped between the provider's answer and our update) expires after
 * the longest lifetime. Returns how many rows changed.
 */
export async function expireStalePendingSessions(db: Db, whose: { posterUid: string } | { sponsorUid: string }, now = new Date()): Promise<number> {
  const owner = "posterUid" in whose ? eq(sponsorSessions.posterUid, whose.posterUid) : eq(sponsorSessions.sponsorUid, whose.sponsorUid);
  const closed = or(
    lte(sponsorSessions.expiresAt, now),
    and(isNull(sponsorSessions.expiresAt), lte(sponsorSessions.created, new Date(now.getTime() - LONGEST_CHECKOUT_LIFETIME_MS))),
  );
  const expired = await db
    .update(sponsorSessions)
    .set({ status: "expired", updatedAt: now })
    .where(and(owner, eq(sponsorSessions.status, "pending"), isNull(sponsorSessions.paymentIntentId), closed))
    .returning({ id: sponsorSessions.id });
  return expired.length;
}
