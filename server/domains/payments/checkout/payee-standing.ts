import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sponsorSessions } from "#server/platform/db/schema";
import { ownerIsActive, OWNER_UNAVAILABLE_PAYMENT_MESSAGE } from "#server/domains/accounts/active-owner";

/**
 * Why the payee of an open sponsor session cannot be paid now, or null: its
 * owner was disabled after the checkout opened (ADR 0029). A provider whose
 * pages run in our process (the sandbox) asks before it charges; Stripe's
 * hosted page cannot, and a payment made there is recorded as it arrives.
 */
export async function whyPayeeCannotBePaid(db: Db, sessionId: string): Promise<string | null> {
  const [row] = await db
    .select({ active: ownerIsActive(sponsorSessions.posterUid).mapWith(Boolean) })
    .from(sponsorSessions)
    .where(eq(sponsorSessions.id, sessionId));
  return row && !row.active ? OWNER_UNAVAILABLE_PAYMENT_MESSAGE : null;
}
