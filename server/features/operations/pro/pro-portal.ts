import { z } from "zod";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { domainError, success } from "#server/platform/errors";
import { createProPortalLink, providerBillingUrl } from "#server/domains/pro/portal";
import { defineOperation, type OperationDeps } from "#server/features/operations/operation";

/** Where the portal returns to unless the caller names a path of ours: My Account, whose Pro Portal button opens it. */
const ACCOUNT_PATH = "/app/account";

export const PORTAL_UNAVAILABLE = "The Pro Portal could not be opened. Please try again in a moment.";

/** The longest path a caller may ask to come back to. */
export const MAX_RETURN_TO = 2000;

export const returnToField = z.string({ error: "returnTo must be a string." }).max(MAX_RETURN_TO, `returnTo must be at most ${MAX_RETURN_TO} characters.`);

/**
 * The provider's billing portal for the caller's own customer, returning to `returnPath` (already
 * one of our paths): the link, or why not. Only the provider's own billing pages are answered.
 */
export async function openPortalFor(deps: OperationDeps, uid: string, returnPath: string) {
  const link = await createProPortalLink(deps.db, deps.payments, uid, { publicOrigin: deps.config.PUBLIC_ORIGIN, returnPath });
  if (link.kind === "ERROR") return link;
  const url = providerBillingUrl(link.url, deps.payments);
  if (!url) return domainError("bad-gateway", PORTAL_UNAVAILABLE);
  return success({ url });
}

/**
 * SPEC §7.1 createPortalLink: the provider's billing portal for the caller's own customer (a
 * subscriber cancels, resumes or switches plans there). Doors: My Account's Pro Portal button
 * (app/routes/app/pro-portal.ts), /app/pro's "Open the Pro Portal" (app/routes/app/pro.tsx),
 * the callable. It returns to `returnTo` when that is a path of ours, else to My Account.
 * Someone who never bought has no portal: aborted (NO_CUSTOMER), which each page says its own way.
 */
export const openProPortal = defineOperation({
  name: "openProPortal",
  who: "account-holder",
  input: z.strictObject({ returnTo: returnToField.optional() }).nullable(),
  // aborted: NO_CUSTOMER; unavailable: the provider did not answer; bad-gateway: it answered an address off its own billing pages.
  refusals: ["aborted", "unavailable", "bad-gateway"],
  call: ({ caller, input, deps }) => openPortalFor(deps, caller.uid, safeRedirectPath(input?.returnTo, ACCOUNT_PATH)),
});
