import { z } from "zod";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { domainError, success } from "#server/platform/errors";
import { accountEmailOf } from "#server/domains/accounts/profiles";
import { buildProSession } from "#server/domains/pro/checkout";
import { providerBillingUrl } from "#server/domains/pro/portal";
import { PRO_PLAN_KEYS } from "#isomorphic/pro-plans";
import { defineOperation } from "#server/features/operations/operation";
import { openPortalFor, returnToField } from "./pro-portal";

const CHECKOUT_UNAVAILABLE = "The checkout could not be opened. Please try again in a moment.";

/** Where the plans page is; a subscriber's switch of plan comes back to it from the portal. */
const PRO_PATH = "/app/pro";

/**
 * SPEC §7.1 buildProSession: where to pay for one Pro plan. Doors: the plans on /app/pro
 * (app/routes/app/pro.tsx) and the callable. The purchase rules are the domain's
 * (server/domains/pro/checkout.ts): the plan one has is aborted; a subscriber's other subscription
 * plan is a switch in the billing portal (destination "portal", returning to the plans); else the
 * provider's hosted checkout. Only the provider's own billing pages are answered; `returnTo` is
 * where a finished checkout comes back to, when it is a path of ours (else /app).
 */
export const startProCheckout = defineOperation({
  name: "startProCheckout",
  who: "account-holder",
  input: z.object({
    plan: z.enum(PRO_PLAN_KEYS, { error: `plan must be one of ${PRO_PLAN_KEYS.join(", ")}.` }),
    returnTo: returnToField.optional(),
  }),
  // aborted: the plan one has (or no customer for a switch); unavailable: the provider did not answer; bad-gateway: it answered an address off its billing pages.
  refusals: ["aborted", "unavailable", "bad-gateway"],
  async call({ caller, input, deps }) {
    const returnTo = safeRedirectPath(input.returnTo, "/app");
    const email = await accountEmailOf(deps.db, caller.uid);
    if (!email) return domainError("unavailable", CHECKOUT_UNAVAILABLE);
    const session = await buildProSession(deps.db, deps.payments, { uid: caller.uid, email, plan: input.plan, returnTo, publicOrigin: deps.config.PUBLIC_ORIGIN });
    if (session.kind === "ERROR") return session;
    if (session.destination === "portal") {
      const portal = await openPortalFor(deps, caller.uid, `${PRO_PATH}?returnTo=${encodeURIComponent(returnTo)}`);
      return portal.kind === "ERROR" ? portal : success({ destination: "portal" as const, url: portal.url });
    }
    const url = providerBillingUrl(session.url, deps.payments);
    if (!url) return domainError("bad-gateway", CHECKOUT_UNAVAILABLE);
    return success({ destination: "checkout" as const, url });
  },
});
