import { z } from "zod";
import { amountInputText } from "#isomorphic/amount-input";
import { MEMBERSHIP_TIER_STATUSES } from "#server/platform/db/schema";
import { createTier, listOwnTiers, readTier, setTierStatus, updateTier, type MembershipTier } from "#server/domains/memberships/tiers";
import type { TierInput } from "#server/domains/memberships/tier-form";
import { domainError, success } from "#server/platform/errors";
import { defineOperation } from "#server/features/operations/operation";
import { bioPageIdSchema } from "./bio-page-input";
import { asVerifiedOwner } from "./verified-owner";

/**
 * A bio page's membership tiers through `/api/v1` (ADR 0084): the same domain calls, rules and
 * messages as the tiers screen (app/routes/memberships/tiers.tsx). Prices travel in minor units
 * here and are written as the form would type them, so one parser checks both doors.
 */

/** A tier's fields in the API's shape: minor units, benefits as a list, null for none. */
const tierFields = z.object({
  name: z.string({ error: "name must be a string." }),
  monthlyPrice: z.int({ error: "monthlyPrice must be a whole number of cents." }).min(0, { error: "monthlyPrice must be a whole number of cents." }),
  yearlyPrice: z.int({ error: "yearlyPrice must be a whole number of cents or null." }).min(0, { error: "yearlyPrice must be a whole number of cents or null." }).nullable(),
  benefits: z.array(z.string({ error: "Each benefit must be a string." }), { error: "benefits must be a list of strings." }),
  memberLimit: z.int({ error: "memberLimit must be a whole number or null." }).nullable(),
  welcomeMessage: z.string({ error: "welcomeMessage must be a string." }),
});
export type TierFieldsInput = z.output<typeof tierFields>;

/** The API's fields as the form types them; a benefit holding a line break would be two, so it is one line. */
function formInputOf(fields: TierFieldsInput): TierInput {
  return {
    name: fields.name,
    monthlyPrice: amountInputText(fields.monthlyPrice),
    yearlyPrice: fields.yearlyPrice === null ? "" : amountInputText(fields.yearlyPrice),
    benefits: fields.benefits.map((line) => line.replace(/[\r\n]+/g, " ")).join("\n"),
    memberLimit: fields.memberLimit === null ? "" : String(fields.memberLimit),
    welcomeMessage: fields.welcomeMessage,
  };
}

/** The caller's page's tiers, paused and retired ones too, with their members: `GET /api/v1/bio-pages/{id}/membership-tiers`. */
export const listMembershipTiers = defineOperation({
  name: "listMembershipTiers",
  who: "account-holder",
  input: z.object({ pageId: bioPageIdSchema }),
  refusals: ["permission-denied", "not-found"],
  call: ({ caller, input, deps }) =>
    asVerifiedOwner(deps.db, caller, async () => {
      const listed = await listOwnTiers(deps.db, { uid: caller.uid }, input.pageId);
      return listed.kind === "ERROR" ? listed : success({ tiers: listed.tiers });
    }),
});

/** Adds a tier at the end of the caller's page's tiers (at most five offered): `POST /api/v1/bio-pages/{id}/membership-tiers`. */
export const createMembershipTier = defineOperation({
  name: "createMembershipTier",
  who: "account-holder",
  input: z.object({ pageId: bioPageIdSchema, fields: tierFields }),
  // invalid-argument: INVALID_FIELDS by field; resource-exhausted: TOO_MANY_TIERS; not-found: not the caller's page.
  refusals: ["invalid-argument", "resource-exhausted", "permission-denied", "not-found"],
  call: ({ caller, input, deps }) => asVerifiedOwner(deps.db, caller, () => createTier(deps.db, { uid: caller.uid }, input.pageId, formInputOf(input.fields))),
});

/**
 * Changes one of the caller's tiers: the fields sent (the rest keep their values), then its status
 * when one is sent (paused: no new members; retired: off the page; active: offered again). Members
 * are never touched. Answers the tier as saved.
 */
export const updateMembershipTier = defineOperation({
  name: "updateMembershipTier",
  who: "account-holder",
  input: z.object({ tierId: z.string({ error: "tierId must be a string." }), changes: tierFields.partial().extend({ status: z.enum(MEMBERSHIP_TIER_STATUSES).optional() }) }),
  refusals: ["invalid-argument", "resource-exhausted", "permission-denied", "not-found"],
  call: ({ caller, input, deps }) =>
    asVerifiedOwner(deps.db, caller, async () => {
      const owner = { uid: caller.uid };
      const { status, ...fields } = input.changes;
      // Ownership is the domain's check (another account's tier is "not found", as none): a body with
      // nothing but a status goes to setTierStatus, anything else through updateTier over what is stored.
      if (Object.keys(fields).length > 0 || !status) {
        const stored = await readTier(deps.db, input.tierId);
        const saved = await updateTier(deps.db, owner, input.tierId, formInputOf({ ...apiFieldsOf(stored), ...fields }));
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

/** A stored tier's fields in the API's shape (blank when there is none: the domain then answers not-found). */
function apiFieldsOf(tier: MembershipTier | null): TierFieldsInput {
  if (!tier) return { name: "", monthlyPrice: 0, yearlyPrice: null, benefits: [], memberLimit: null, welcomeMessage: "" };
  return { name: tier.name, monthlyPrice: tier.monthlyPrice, yearlyPrice: tier.yearlyPrice, benefits: tier.benefits, memberLimit: tier.memberLimit, welcomeMessage: tier.welcomeMessage };
}
