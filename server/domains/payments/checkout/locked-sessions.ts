import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sponsorSessions } from "#server/platform/db/schema";

export type LockedSession = typeof sponsorSessions.$inferSelect;

/**
 * The session row, locked (`select … for update`) until the transaction ends:
 * two events about one session — or two deliveries of one — are applied one
 * after the other, each seeing what the other wrote.
 */
async function lockWhere(tx: Db, where: ReturnType<typeof eq>): Promise<LockedSession | null> {
  const [row] = await tx.select().from(sponsorSessions).where(where).for("update");
  return row ?? null;
}

/** By our id (sent to the provider as metadata) or, failing that, the provider's checkout id. */
export async function lockSessionOfCheckout(tx: Db, event: { sessionId: string | null; checkoutId: string }): Promise<LockedSession | null> {
  if (event.sessionId) {
    const session = await lockWhere(tx, eq(sponsorSessions.id, event.sessionId));
    if (session) return session;
  }
  return lockWhere(tx, eq(sponsorSessions.providerCheckoutId, event.checkoutId));
}

/** The same row without a lock, for reads made before the transaction (prefetch). */
export async function findSessionOfCheckout(db: Db, event: { sessionId: string | null; checkoutId: string }): Promise<LockedSession | null> {
  const byId = event.sessionId ? await db.select().from(sponsorSessions).where(eq(sponsorSessions.id, event.sessionId)) : [];
  if (byId[0]) return byId[0];
  const [byCheckout] = await db.select().from(sponsorSessions).where(eq(sponsorSessions.providerCheckoutId, event.checkoutId));
  return byCheckout ?? null;
}

export function lockSessionOfPayment(tx: Db, paymentIntentId: string): Promise<LockedSession | null> {
  return lockWhere(tx, eq(sponsorSessions.paymentIntentId, paymentIntentId));
}

export function lockSessionById(tx: Db, sessionId: string): Promise<LockedSession | null> {
  return lockWhere(tx, eq(sponsorSessions.id, sessionId));
}
