import type { AppLoadContext } from "react-router";
import { webhookDepsOf } from "#server/features/payment-webhooks/http";
import { memberLinkKey } from "#server/domains/memberships/member-link";
import type { MemberActionDeps } from "#server/domains/memberships/member-actions";

/** What the member page's buttons need: the webhook handlers' own deps (provider, mail, site) and the member links' key. */
export function memberActionDepsOf(context: AppLoadContext): MemberActionDeps {
  return { ...webhookDepsOf(context), memberLinkKey: memberLinkKey(context.sessionSecret) };
}

