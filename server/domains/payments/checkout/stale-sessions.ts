import { and, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sponsorSessions } from "#server/platform/db/schema";

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
 * ledger, server/domains/payments/ledger/ledger.ts). A row without a known expiry (the
 * process stopped between the provider's answer and our update) expires after
 * the longest lifetime. Returns how many rows changed.
 */
export async function expireStalePendingSessions(db: Db, whose: { posterUid: string } | { sponsorUid: string }, now = new Date()): Promise<number> {
  const owner = "posterUid" in whose ? eq(sponsorSessions.posterUid, whose.posterUid) : eq(sponsorSessions.sponsorUid, whose.sponsorUid);
  const expired = await db
    .update(sponsorSessions)
    .set({ status: "expired", updatedAt: now })
    .where(and(owner, staleAt(now)))
    .returning({ id: sponsorSessions.id });
  return expired.length;
}

/**
 * The same expiry for everyone's sessions, in batches: the scheduled job (server/main/scheduled-jobs.ts)
 * runs it in the background, so counts and exports that read sessions without going through a
 * person's list see closed checkouts as expired too. The read-time expiry above stays: a person's own
 * list is right at once, whenever the job last ran. Running it twice, or in two processes at once,
 * changes nothing more (only pending rows match). Returns how many rows changed.
 */
export async function expireAllStalePendingSessions(db: Db, now = new Date(), batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const due = db.select({ id: sponsorSessions.id }).from(sponsorSessions).where(staleAt(now)).limit(batch);
    const expired = await db
      .update(sponsorSessions)
      .set({ status: "expired", updatedAt: now })
      .where(and(inArray(sponsorSessions.id, due), staleAt(now)))
      .returning({ id: sponsorSessions.id });
    total += expired.length;
    if (expired.length < batch) return total;
  }
}

/** Pending, never paid, and closed at the provider (or older than any checkout lives). */
function staleAt(now: Date) {
  const closed = or(
    lte(sponsorSessions.expiresAt, now),
    and(isNull(sponsorSessions.expiresAt), lte(sponsorSessions.created, new Date(now.getTime() - LONGEST_CHECKOUT_LIFETIME_MS))),
  );
  return and(eq(sponsorSessions.status, "pending"), isNull(sponsorSessions.paymentIntentId), closed);
}
