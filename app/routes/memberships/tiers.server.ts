import type { AppLoadContext } from "react-router";
import type { SessionUser } from "#server/domains/auth/session";
import { moveTier, type MembershipTier } from "#server/domains/memberships/tiers";
import { createMembershipTier, updateMembershipTier } from "#server/features/operations/bio-pages/membership-tiers";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { tierInputOf, type TierInput } from "#server/domains/memberships/tier-form";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { formText } from "#app/lib/identity.server";
import { answerRefusal, refuseWith } from "#page-kit/respond.server";
import type { TierIntent, TierRow, TiersAnswer } from "#app/components/memberships/TierEditor";

/** The tiers as their forms show them. */
export function tierRows(tiers: MembershipTier[]): TierRow[] {
  return tiers.map((tier) => ({ id: tier.id, name: tier.name, status: tier.status, members: tier.members, memberLimit: tier.memberLimit, values: tierInputOf(tier) }));
}

function tierInput(form: FormData): TierInput {
  return {
    name: formText(form, "tierName"),
    monthlyPrice: formText(form, "monthlyPrice"),
    yearlyPrice: formText(form, "yearlyPrice"),
    benefits: formText(form, "benefits"),
    memberLimit: formText(form, "memberLimit"),
    welcomeMessage: formText(form, "welcomeMessage"),
  };
}

export type TiersActionData = { tiers: TiersAnswer };

const DONE: Record<TierIntent, string> = {
  "tier-add": "Tier added to your page.",
  "tier-save": "Tier saved. Members keep the price they joined at.",
  "tier-up": "Tiers reordered.",
  "tier-down": "Tiers reordered.",
  "tier-pause": "Tier paused: your page shows it no more, and its members stay.",
  "tier-resume": "Tier offered on your page again.",
  "tier-retire": "Tier retired: it is off your page, and its members stay.",
};

/**
 * The tiers' forms, each one operation (moving: one domain call) for the caller's own page or tier, then back to the same
 * screen with a toast. A refused form comes back with what was typed beside its messages; a page
 * or tier that is not the caller's is "not found".
 */
export async function tiersAction(request: Request, context: AppLoadContext, user: SessionUser, pageId: string, form: FormData) {
  const intent = formText(form, "intent") as TierIntent;
  const tierId = formText(form, "tierId");
  const input = tierInput(form);
  const caller = pageCaller(user);
  const STATUS = { "tier-pause": "paused", "tier-resume": "active", "tier-retire": "retired" } as const;
  const result =
    intent === "tier-add"
      ? await runForPage(createMembershipTier, { caller, input: { pageId, fields: input }, context, notFound: "answer" })
      : intent === "tier-save"
        ? await runForPage(updateMembershipTier, { caller, input: { tierId, changes: input }, context, notFound: "answer" })
        : intent === "tier-pause" || intent === "tier-resume" || intent === "tier-retire"
          ? await runForPage(updateMembershipTier, { caller, input: { tierId, changes: { status: STATUS[intent] } }, context, notFound: "answer" })
          : intent === "tier-up" || intent === "tier-down"
            ? // Moving has one door, this screen: a plain domain call.
              await moveTier(context.db, { uid: user.id }, tierId, intent === "tier-up" ? "up" : "down")
            : null;
  if (!result) refuseWith({ code: "invalid-argument", message: "This form's button is not one of this page's." });
  if (result.kind === "ERROR") {
    if (result.code === "not-found") refuseWith(result);
    const errors = "fieldErrors" in result ? result.fieldErrors : {};
    const message = "fieldErrors" in result ? undefined : result.message;
    const answer: TiersActionData = { tiers: { tierId: intent === "tier-add" ? "new" : tierId, values: input, errors, message, formKey: crypto.randomUUID() } };
    return answerRefusal(result, answer);
  }
  const here = new URL(request.url);
  return redirectWithToast(request, context.sessionSecret, safeRedirectPath(here.pathname), { kind: "success", message: DONE[intent] });
}
