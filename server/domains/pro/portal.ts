import type { Db } from "#server/platform/db/client";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import { findBillingCustomer } from "./customers";
import { allowedProviderUrl } from "#server/providers/payments/hosted-pages";

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

/**
 * The provider's pages we may redirect a browser to: the sandbox's Pro
 * checkout and portal on our own origin; Stripe's hosted checkout and billing
 * portal. Anything else is refused (null), as sponsor-checkout.ts does.
 */
export function providerBillingUrl(url: string, origins: { provider: PaymentProvider["name"]; publicOrigin: string; stripeApiUrl?: string }): string | null {
  return allowedProviderUrl(url, {
    ...origins,
    sandboxPath: /^\/sandbox\/(pro-checkout|portal)\/[A-Za-z0-9_]+$/,
    externalOrigins: ["https://checkout.stripe.com", ...externalBillingOrigins(origins)],
  });
}

/** Origins off our own that Pro's POSTs redirect to (Stripe's billing portal), for the CSP's form-action; checkout's are sponsor-checkout.ts's. */
export function externalBillingOrigins(origins: { provider: PaymentProvider["name"]; stripeApiUrl?: string }): string[] {
  if (origins.provider !== "stripe") return [];
  return [...new Set(["https://billing.stripe.com", ...(origins.stripeApiUrl ? [new URL(origins.stripeApiUrl).origin] : [])])];
}
