import { and, eq, ne } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { sandboxAccounts, sandboxCustomers, sandboxProCheckouts, sandboxSubscriptions } from "#server/payments/sandbox/schema";

/**
 * The sandbox's side of an account deletion (ADR 0031), as Stripe does it: a deleted payout
 * account is gone; a deleted customer's subscriptions end now and the customer keeps no email,
 * card or user id. The customer row itself stays as an empty shell, since the sandbox's
 * subscriptions and purchases (the provider's payment records) point at it.
 */
export async function deleteSandboxAccount(db: Db, accountId: string): Promise<void> {
  await db.delete(sandboxAccounts).where(eq(sandboxAccounts.id, accountId));
}

export async function deleteSandboxCustomer(db: Db, customerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(sandboxSubscriptions)
      .set({ status: "canceled", cancelAtPeriodEnd: false })
      .where(and(eq(sandboxSubscriptions.customerId, customerId), ne(sandboxSubscriptions.status, "canceled")));
    await tx.update(sandboxProCheckouts).set({ uid: "" }).where(eq(sandboxProCheckouts.customerId, customerId));
    await tx
      .update(sandboxCustomers)
      .set({ uid: "", email: "", cardBrand: null, cardLast4: null, cardFailsRenewal: false })
      .where(eq(sandboxCustomers.id, customerId));
  });
}
