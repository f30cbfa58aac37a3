import { z } from "zod";
import { MEMBERSHIP_TIER_STATUSES } from "#server/platform/db/schema";
import { domainError, success } from "#server/platform/errors";
import { createTier, listOwnTiers, readTier, setTierStatus, updateTier } from "#server/domains/memberships/tiers";
import { tierInputOf } from "#server/domains/memberships/tier-form";
import { defineOperation } from "#server/features/operations/operation";
import { bioPageIdSchema } from "./bio-page-input";
import { asVerifiedOwner } from "./verified-owner";

/**
 * A bio page's membership tiers (ADR 0084): the tiers screen (app/routes/memberships/tiers.tsx)
 * and `/api/v1`. Fields travel as the screen's form types them (prices in dollars, benefits one a
 * line); the API door writes its cents and lists that way, so one parser (tier-form.ts) checks both
 * doors with the same messages.
 */

const text = (name: string) => z.string({ error: `${name} must be a string.` });
const tierFields = z.object({
  name: text("name"),
  monthlyPrice: text("monthlyPrice"),
  yearlyPrice: text("yearlyPrice"),
  benefits: text("benefits"),
  memberLimit: text("memberLimit"),
  welcomeMessage: text("welcomeMessage"),
});

/** The caller's page's tiers, paused and retired ones too, with their members, the page and whether it takes payments. */
export const listMembershipTiers = defineOperation({
  name: "listMembershipTiers",
  who: "account-holder",
  input: z.object({ pageId: bioPageIdSchema }),
  refusals: ["permission-denied", "not-found"],
  call: ({ caller, input, deps }) => asVerifiedOwner(deps.db, caller, () => listOwnTiers(deps.db, { uid: caller.uid }, input.pageId)),
});

/** Adds a tier at the end of the caller's page's tiers (at most five offered at once). */
export const createMembershipTier = defineOperation({
  name: "createMembershipTier",
  who: "account-holder",
  input: z.object({ pageId: bioPageIdSchema, fields: tierFields }),
  // invalid-argument: INVALID_FIELDS by field; resource-exhausted: TOO_MANY_TIERS; not-found: not the caller's page.
  refusals: ["invalid-argument", "resource-exhausted", "permission-denied", "not-found"],
  call: ({ caller, input, deps }) => asVerifiedOwner(deps.db, caller, () => createTier(deps.db, { uid: caller.uid }, input.pageId, input.fields)),
});

/**
 * Changes one of the caller's tiers: the fields sent over what is stored, then its status when one
 * is sent (paused: no new members; retired: off the page; active: offered again, within the five).
 * Members are never touched. Answers the tier as saved.
 */
export const updateMembershipTier = defineOperation({
  name: "updateMembershipTier",
  who: "account-holder",
  input: z.object({ tierId: text("tierId"), changes: tierFields.partial().extend({ status: z.enum(MEMBERSHIP_TIER_STATUSES).optional() }) }),
  refusals: ["invalid-argument", "resource-exhausted", "permission-denied", "not-found"],
  call: ({ caller, input, deps }) =>
    asVerifiedOwner(deps.db, caller, async () => {
      const owner = { uid: caller.uid };
      const { status, ...fields } = input.changes;
      // Ownership is the domain's check (another account's tier is "not found", as none): a change of
      // status alone goes to setTierStatus, anything else through updateTier over what is stored.
      if (Object.keys(fields).length > 0 || !status) {
        const stored = await readTier(deps.db, input.tierId);
        const blank = { name: "", monthlyPrice: "", yearlyPrice: "", benefits: "", memberLimit: "", welcomeMessage: "" };
        const saved = await updateTier(deps.db, owner, input.tierId, { ...(stored ? tierInputOf(stored) : blank), ...fields });
        if (saved.kind === "ERROR") return saved;
      }
      if (status) {
        const changed = await setTierStatus(deps.db, owner, input.tierId, status === "active" ? "resume" : status === "paused" ? "pause" : "retire");
        if (changed.kind === "ERROR") return changed;
      }
      const tier = await readTier(deps.db, input.tierId);
      return tier ? success({ tier }) : domainError("not-found", "This tier doesn't exist or isn't yours.");
    }),
});
