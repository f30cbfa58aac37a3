import { and, eq, ne } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { deleteSandboxMembershipCustomer } from "./memberships";
import { sandboxAccounts, sandboxCheckouts, sandboxCustomers, sandboxMembershipCheckouts, sandboxMembershipSubscriptions, sandboxPayments, sandboxProCheckouts, sandboxSubscriptions, sandboxTransfers } from "#server/providers/payments/sandbox/schema";

/** What a deleted account's checkouts say instead of the product's text, which named the creator's page. */
export const DELETED_ACCOUNT_TEXT = "Deleted account";

/**
 * The sandbox's side of an account deletion (ADR 0031), as Stripe does it. A deleted payout
 * account that never had a checkout or a transfer is gone. One that had keeps its row as an empty shell (no
 * email, uid, legal name, country, bank digits or onboarding link; charges and payouts off), since its
 * checkouts, payments and transfers (the provider's payment records) point at it; those keep their amounts
 * but lose the personal text: the sponsor's email and the product name and description we wrote.
 * A deleted customer's subscriptions end now and the customer keeps no email, card or user id;
 * its row stays as a shell too, since subscriptions and purchases point at it. Both shells also
 * forget the idempotency key of the call that made them, as ours name the user (`account_<uid>`).
 * A deleted member's customer (memberships) ends its subscriptions now and keeps no email or card.
 */
export async function deleteSandboxAccount(db: Db, accountId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [pointedAt] = await tx.select({ id: sandboxCheckouts.id }).from(sandboxCheckouts).where(eq(sandboxCheckouts.accountId, accountId)).limit(1);
    const [paidTo] = await tx.select({ id: sandboxTransfers.id }).from(sandboxTransfers).where(eq(sandboxTransfers.accountId, accountId)).limit(1);
    const [joinedAt] = await tx.select({ id: sandboxMembershipCheckouts.id }).from(sandboxMembershipCheckouts).where(eq(sandboxMembershipCheckouts.accountId, accountId)).limit(1);
    if (!pointedAt && !paidTo && !joinedAt) {
      // Payments are made only through its checkouts and transfers name it, so an account without either has nothing pointing at it.
      await tx.delete(sandboxAccounts).where(eq(sandboxAccounts.id, accountId));
      return;
    }
    await tx
      .update(sandboxCheckouts)
      .set({ productName: DELETED_ACCOUNT_TEXT, description: null, customerEmail: null })
      .where(eq(sandboxCheckouts.accountId, accountId));
    await tx.update(sandboxMembershipCheckouts).set({ productName: DELETED_ACCOUNT_TEXT, customerEmail: null }).where(eq(sandboxMembershipCheckouts.accountId, accountId));
    await tx.update(sandboxMembershipSubscriptions).set({ productName: DELETED_ACCOUNT_TEXT }).where(eq(sandboxMembershipSubscriptions.accountId, accountId));
    await tx.update(sandboxPayments).set({ email: "" }).where(eq(sandboxPayments.accountId, accountId));
    await tx
      .update(sandboxAccounts)
      .set({ idempotencyKey: null, email: "", uid: "", legalName: null, country: null, bankLast4: null, onboardingLinkId: null, chargesEnabled: false, payoutsEnabled: false })
      .where(eq(sandboxAccounts.id, accountId));
  });
}

export async function deleteSandboxCustomer(db: Db, customerId: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    // A member's customer (memberships) is a customer of its own kind: its subscriptions end the same way.
    await deleteSandboxMembershipCustomer(tx, customerId, now);
    await tx
      .update(sandboxSubscriptions)
      .set({ status: "canceled", cancelAtPeriodEnd: false })
      .where(and(eq(sandboxSubscriptions.customerId, customerId), ne(sandboxSubscriptions.status, "canceled")));
    await tx.update(sandboxProCheckouts).set({ uid: "" }).where(eq(sandboxProCheckouts.customerId, customerId));
    await tx
      .update(sandboxCustomers)
      .set({ idempotencyKey: null, uid: "", email: "", cardBrand: null, cardLast4: null, cardFailsRenewal: false })
      .where(eq(sandboxCustomers.id, customerId));
  });
}
