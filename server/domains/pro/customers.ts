import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { billingCustomers } from "#server/platform/db/schema";
import type { PaymentProvider } from "#server/providers/payments/port";

export async function findBillingCustomer(db: Db, uid: string): Promise<string | null> {
  const [row] = await db.select({ customerId: billingCustomers.customerId }).from(billingCustomers).where(eq(billingCustomers.uid, uid));
  return row?.customerId ?? null;
}

/** Whose customer this is, for the webhook handler (null for a customer that is not ours). */
export async function uidOfBillingCustomer(db: Db, customerId: string): Promise<string | null> {
  const [row] = await db.select({ uid: billingCustomers.uid }).from(billingCustomers).where(eq(billingCustomers.customerId, customerId));
  return row?.uid ?? null;
}

/**
 * The person's billing customer, made on first need. Race-safe twice over:
 * every attempt uses the idempotency key `customer_<uid>`, so two tabs get the
 * same customer from the provider, and the row's primary key (uid) keeps one
 * mapping; the loser of the insert reads the winner's.
 */
export async function ensureBillingCustomer(db: Db, provider: PaymentProvider, person: { uid: string; email: string }): Promise<string> {
  const known = await findBillingCustomer(db, person.uid);
  if (known) return known;
  const { customerId } = await provider.createCustomer({ idempotencyKey: `customer_${person.uid}`, uid: person.uid, email: person.email });
  await db.insert(billingCustomers).values({ uid: person.uid, provider: provider.name, customerId }).onConflictDoNothing();
  const stored = await findBillingCustomer(db, person.uid);
  return stored ?? customerId;
}
