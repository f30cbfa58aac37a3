import { findSandboxAccount } from "./accounts";
import { expireCheckoutIfDue, successUrlFor } from "./checkouts";
import type { SandboxProvider } from "./provider";

export type CheckoutView = {
  id: string;
  status: "open" | "complete" | "expired";
  productName: string;
  description: string | null;
  amount: number;
  currency: string;
  payee: string;
  email: string;
  cancelUrl: string;
  /** Where a paid checkout sends the sponsor (shown on "already paid"). */
  successUrl: string | null;
  expiresAt: string;
};

/**
 * What the hosted checkout page shows. Opening a checkout whose time is up
 * expires it there and then (storing `checkout.expired` once), as Stripe's
 * page does.
 */
export async function loadCheckoutView(sandbox: SandboxProvider, db: Parameters<typeof findSandboxAccount>[0], checkoutId: string): Promise<CheckoutView | null> {
  const checkout = await expireCheckoutIfDue(db, checkoutId, sandbox.now());
  if (!checkout) return null;
  if (checkout.status === "expired") sandbox.outbox.kick();
  const account = await findSandboxAccount(db, checkout.accountId);
  return {
    id: checkout.id,
    status: checkout.status,
    productName: checkout.productName,
    description: checkout.description,
    amount: checkout.amount,
    currency: checkout.currency,
    payee: account?.legalName ?? account?.email ?? "the creator",
    email: checkout.customerEmail ?? "",
    cancelUrl: checkout.cancelUrl,
    successUrl: checkout.status === "complete" ? successUrlFor(checkout) : null,
    expiresAt: checkout.expiresAt.toISOString(),
  };
}
