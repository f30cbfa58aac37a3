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
  /** Who the money goes to; null for a held payment (a deal's), which the platform keeps until it is released. */
  payee: string | null;
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
  const account = checkout.accountId ? await findSandboxAccount(db, checkout.accountId) : null;
  return {
    id: checkout.id,
    status: checkout.status,
    productName: checkout.productName,
    description: checkout.description,
    amount: checkout.amount,
    currency: checkout.currency,
    payee: checkout.purpose === "deal" ? null : (account?.legalName ?? account?.email ?? "the creator"),
    email: checkout.customerEmail ?? "",
    cancelUrl: checkout.cancelUrl,
    successUrl: checkout.status === "complete" ? successUrlFor(checkout) : null,
    expiresAt: checkout.expiresAt.toISOString(),
  };
}
