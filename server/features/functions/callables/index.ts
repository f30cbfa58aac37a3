import type { CallableFunction } from "#server/features/functions/protocol";
import { buildProSessionFunction } from "./build-pro-session";
import { buildSponsorSessionFunction } from "./build-sponsor-session";
import { createLoginLinkFunction } from "./create-login-link";
import { createPortalLinkFunction } from "./create-portal-link";
import { refundSponsorshipFunction } from "./refund-sponsorship";
import { sponsorPaymentInfoFunction } from "./sponsor-payment-info";
import type { CallableDeps } from "./support";

export type { CallableDeps } from "./support";

/**
 * The payment callables of SPEC §7.1, by name (verifyRecaptcha is the captcha's,
 * server/features/functions/verify-recaptcha.ts). Each is a thin door onto the operation its
 * page uses (server/features/operations/, through server/features/functions/operation-door.ts), or for the Pro ones
 * onto the domain function its page uses, with that page's checks.
 */
export function paymentCallables(deps: CallableDeps): Record<string, CallableFunction> {
  return {
    buildSponsorSession: buildSponsorSessionFunction(deps),
    buildProSession: buildProSessionFunction(deps),
    createPortalLink: createPortalLinkFunction(deps),
    createLoginLink: createLoginLinkFunction(deps),
    refundSponsorship: refundSponsorshipFunction(deps),
    sponsorPaymentInfo: sponsorPaymentInfoFunction(deps),
  };
}
