import type { AppLoadContext } from "react-router";
import { webhookDepsOf } from "#server/features/payment-webhooks/http";
import type { MemberActionDeps } from "#server/domains/memberships/member-actions";

/** What the member page's buttons need: the webhook handlers' own deps (provider, mail, site, the member links' key). */
export function memberActionDepsOf(context: AppLoadContext): MemberActionDeps {
  return webhookDepsOf(context);
}

