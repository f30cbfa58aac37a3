import type { Db } from "#server/db/client";
import type { NotificationDeps } from "#server/notifications/send";
import type { PaymentProvider } from "#server/payments/provider";
import { findBillingCustomer } from "./customers";
import { syncProMembership, type SyncResult } from "./sync";

/**
 * Reads the provider's truth for the person and syncs it now, without waiting
 * for the webhook: the Pro page calls it on the return from checkout, so it is
 * right at once. The webhook's later sync of the same state changes nothing.
 */
export async function refreshProMembership(
  db: Db,
  provider: PaymentProvider,
  uid: string,
  deps: NotificationDeps,
  now = new Date(),
): Promise<SyncResult | null> {
  const customerId = await findBillingCustomer(db, uid);
  if (!customerId) return null;
  const state = await provider.readProState(customerId);
  return db.transaction((tx) => syncProMembership(tx, uid, state, now, deps));
}
