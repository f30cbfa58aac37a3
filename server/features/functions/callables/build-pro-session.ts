import { z } from "zod";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { domainError, success } from "#server/platform/errors";
import { buildProSession } from "#server/domains/pro/checkout";
import { PRO_PLAN_KEYS } from "#isomorphic/pro-plans";
import { createProPortalLink, providerBillingUrl } from "#server/domains/pro/portal";
import { callableRefusalOf, type CallableFunction } from "#server/features/functions/protocol";
import { type CallableDeps, verifiedCall } from "./support";

const proSessionInput = z.object(
  {
    plan: z.enum(PRO_PLAN_KEYS, { error: `plan must be one of ${PRO_PLAN_KEYS.join(", ")}.` }),
    returnTo: z.string({ error: "returnTo must be a string." }).max(2000, "returnTo must be at most 2000 characters.").optional(),
  },
  { error: "data must be an object with a plan." },
);

const UNAVAILABLE = "The checkout could not be opened. Please try again in a moment.";

/**
 * SPEC §7.1 buildProSession: { plan, returnTo? } → { url, destination } for the
 * provider's hosted checkout of that plan, as the plans on /app/pro
 * (app/routes/app/pro.tsx): the same purchase rules (the plan one has is
 * aborted; a subscriber's other subscription plan is a switch in the billing
 * portal, answered with destination "portal"), and only the provider's own
 * pages as the address.
 */
export function buildProSessionFunction({ db, payments, config }: CallableDeps): CallableFunction {
  return async (data, context) => {
    const call = verifiedCall(context, proSessionInput, data);
    if (call.kind === "ERROR") return call;
    const { caller, input: { plan, returnTo: asked } } = call;
    const returnTo = safeRedirectPath(asked, "/app");
    const result = await buildProSession(db, payments, { uid: caller.id, email: caller.email, plan, returnTo, publicOrigin: config.PUBLIC_ORIGIN });
    if (result.kind === "ERROR") return callableRefusalOf(result);
    if (result.destination === "portal") {
      const link = await createProPortalLink(db, payments, caller.id, { publicOrigin: config.PUBLIC_ORIGIN, returnPath: `/app/pro?returnTo=${encodeURIComponent(returnTo)}` });
      if (link.kind === "ERROR") return callableRefusalOf(link);
      const url = providerBillingUrl(link.url, payments);
      if (!url) return domainError("unavailable", "The Pro Portal could not be opened. Please try again in a moment.");
      return success({ result: { url, destination: "portal" } });
    }
    const url = providerBillingUrl(result.url, payments);
    if (!url) return domainError("unavailable", UNAVAILABLE);
    return success({ result: { url, destination: "checkout" } });
  };
}
