import { z } from "zod";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { domainError, success } from "#server/platform/errors";
import { createProPortalLink, providerBillingUrl } from "#server/domains/pro/portal";
import { callableRefusalOf, type CallableFunction } from "#server/features/functions/protocol";
import { type CallableDeps, verifiedCall } from "./support";

/** Where the portal returns to unless the call names a path of ours: My Account, as its Pro Portal button. */
const ACCOUNT_PATH = "/app/account";

const portalInput = z
  .strictObject(
    { returnTo: z.string({ error: "returnTo must be a string." }).max(2000, "returnTo must be at most 2000 characters.").optional() },
    { error: () => "data must be null or an object with an optional returnTo path." },
  )
  .nullable();

/**
 * SPEC §7.1 createPortalLink: the provider's billing portal for the caller's
 * own customer, as My Account's Pro Portal button (app/routes/app/pro-portal.ts).
 * Someone who never bought has none: aborted, as /app/pro answers it.
 */
export function createPortalLinkFunction({ db, payments, config }: CallableDeps): CallableFunction {
  return async (data, context) => {
    const call = verifiedCall(context, portalInput, data);
    if (call.kind === "ERROR") return call;
    const { caller, input } = call;
    const returnPath = safeRedirectPath(input?.returnTo, ACCOUNT_PATH);
    const link = await createProPortalLink(db, payments, caller.id, { publicOrigin: config.PUBLIC_ORIGIN, returnPath });
    if (link.kind === "ERROR") return callableRefusalOf(link);
    const url = providerBillingUrl(link.url, payments);
    if (!url) return domainError("unavailable", "The Pro Portal could not be opened. Please try again in a moment.");
    return success({ result: { url } });
  };
}
