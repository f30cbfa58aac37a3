import type { Db } from "#server/platform/db/client";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import { findBillingCustomer } from "./customers";

export const NO_PRO_PLAN_MESSAGE = "You have no Pro plan to manage yet: choose one on the Pro page.";

/** NO_CUSTOMER: someone who never bought has no portal (aborted, as SPEC §7.1 createPortalLink answers it). */
export type PortalLinkResult = Success<{ url: string }> | Refusal<"aborted", "NO_CUSTOMER"> | Refusal<"unavailable", "PROVIDER_UNREACHABLE">;

/**
 * SPEC §7.1 createPortalLink: the provider's billing portal for the person's
 * own customer, returning to `returnPath` on our site. Someone who never
 * bought has no customer: the caller sends them to the plans instead.
 */
export async function createProPortalLink(db: Db, provider: PaymentProvider, uid: string, options: { publicOrigin: string; returnPath: string }): Promise<PortalLinkResult> {
  const customerId = await findBillingCustomer(db, uid);
  if (!customerId) return refusal("aborted", "NO_CUSTOMER", NO_PRO_PLAN_MESSAGE);
  try {
    const { url } = await provider.createPortalLink({ customerId, returnUrl: `${options.publicOrigin}${options.returnPath}` });
    return success({ url });
  } catch {
    return refusal("unavailable", "PROVIDER_UNREACHABLE", "The Pro Portal could not be opened. Please try again in a moment.");
  }
}

/** The provider's billing pages we may redirect a browser to (Pro's checkout and portal), or null: as for a sponsor's checkout. */
export function providerBillingUrl(url: string, provider: Pick<PaymentProvider, "hostedPages">): string | null {
  return provider.hostedPages.follow(url, "billing");
}
