import { and, desc, eq, gt, isNotNull, isNull, lt, lte, or } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { success, type Success } from "#server/platform/errors";
import { billingCustomers, proCheckouts } from "#server/platform/db/schema";
import type { NotificationDeps } from "#server/domains/notifications/send";
import type { PaymentProvider } from "#server/providers/payments/port";
import { findBillingCustomer } from "./customers";
import { readSettledProState } from "./one-subscription";
import { syncProMembership, type SyncResult } from "./sync";

/** How often the Pro page may read the provider for one person, however often it is loaded (each read is 2+ provider calls). */
export const REFRESH_INTERVAL_MS = 10_000;

type Provider = Pick<PaymentProvider, "readProState" | "endSubscription">;

/**
 * Reads the provider's truth for the person (one live subscription enforced
 * first: one-subscription.ts) and syncs it now, without waiting for the
 * webhook. The webhook's later sync of the same state changes nothing.
 */
export async function refreshProMembership(db: Db, provider: Provider, uid: string, deps: NotificationDeps, now = new Date()): Promise<SyncResult | null> {
  const customerId = await findBillingCustomer(db, uid);
  if (!customerId) return null;
  const state = await readSettledProState(provider, customerId);
  return db.transaction((tx) => syncProMembership(tx, uid, state, now, deps));
}

/** The provider was read and the membership synced, or there was no reason (or no right yet) to read it. */
export type CheckoutReturnRefresh = Success<{ outcome: "SYNCED"; result: SyncResult }> | Success<{ outcome: "SKIPPED"; because: "nothing-unsettled" | "too-soon" }>;

/**
 * The return from checkout (`/app/pro?checkout=success`), which anyone can
 * load as often as they like: the provider is read only while one of the
 * person's checkouts is still unsettled and open (sync.ts settles those the
 * membership covers), and at most once per person per REFRESH_INTERVAL_MS,
 * claimed on the billing customer's row so that tabs and processes share it;
 * a checkout opened since the last read earns one read of its own (a click
 * each, and open checkouts are reused, so that stays bounded). Otherwise the
 * page shows what the webhook last wrote.
 */
export async function refreshAfterCheckout(db: Db, provider: Provider, uid: string, deps: NotificationDeps, now = new Date()): Promise<CheckoutReturnRefresh> {
  const [waiting] = await db
    .select({ created: proCheckouts.created })
    .from(proCheckouts)
    .where(and(eq(proCheckouts.uid, uid), isNull(proCheckouts.settledAt), isNotNull(proCheckouts.expiresAt), gt(proCheckouts.expiresAt, now)))
    .orderBy(desc(proCheckouts.created))
    .limit(1);
  if (!waiting) return success({ outcome: "SKIPPED", because: "nothing-unsettled" });
  const claimed = await db
    .update(billingCustomers)
    .set({ refreshedAt: now })
    .where(
      and(
        eq(billingCustomers.uid, uid),
        or(isNull(billingCustomers.refreshedAt), lte(billingCustomers.refreshedAt, new Date(now.getTime() - REFRESH_INTERVAL_MS)), lt(billingCustomers.refreshedAt, waiting.created)),
      ),
    )
    .returning({ uid: billingCustomers.uid });
  if (claimed.length === 0) return success({ outcome: "SKIPPED", because: "too-soon" });
  const result = await refreshProMembership(db, provider, uid, deps, now);
  return result ? success({ outcome: "SYNCED", result }) : success({ outcome: "SKIPPED", because: "nothing-unsettled" });
}
