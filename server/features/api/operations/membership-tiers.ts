import { z } from "zod";
import { MEMBERSHIP_LIMITS } from "#isomorphic/membership-limits";
import { amountInputText } from "#isomorphic/amount-input";
import type { MembershipTier } from "#server/domains/memberships/tiers";
import type { TierInput } from "#server/domains/memberships/tier-form";
import { MEMBERSHIP_TIER_STATUSES } from "#server/platform/db/schema";
import type { AnyApiOperation } from "#server/features/api/operation";
import { apiOperationOf } from "#server/features/api/operation-door";
import { bioPageIdSchema } from "#server/features/operations/bio-pages/bio-page-input";
import { createMembershipTier, listMembershipTiers, updateMembershipTier } from "#server/features/operations/bio-pages/membership-tiers";

const cents = (what: string) => z.int().min(MEMBERSHIP_LIMITS.minimumPrice).max(MEMBERSHIP_LIMITS.maximumPrice).meta({ description: `${what}, in cents, from ${MEMBERSHIP_LIMITS.minimumPrice} to ${MEMBERSHIP_LIMITS.maximumPrice}.` });

const tierSchema = z
  .object({
    id: z.string(),
    bioPageId: z.string(),
    name: z.string(),
    monthlyPrice: z.int().meta({ description: "Cents a month." }),
    yearlyPrice: z.int().nullable().meta({ description: "Cents a year; null when sold by the month only." }),
    currency: z.string(),
    benefits: z.array(z.string()).meta({ description: "What members get, in order." }),
    memberLimit: z.int().nullable().meta({ description: "At most this many members; null for no limit." }),
    welcomeMessage: z.string().meta({ description: "Shown to new members after paying and in their welcome mail." }),
    status: z.enum(MEMBERSHIP_TIER_STATUSES).meta({ description: "`paused` takes no new members; `retired` is off the page. Neither changes anything for its members." }),
    position: z.int().meta({ description: "Its place on the page, smallest first." }),
    members: z.int().min(0).meta({ description: "Members whose membership still runs (active, past due, or cancelled until their period ends)." }),
  })
  .meta({ id: "MembershipTier", description: "One membership tier of your bio page." });

const fieldsSchema = z.strictObject({
  name: z.string().meta({ description: `Required; at most ${MEMBERSHIP_LIMITS.nameMax} characters.` }),
  monthlyPrice: cents("The price a month"),
  yearlyPrice: cents("The price a year").nullable().meta({ description: "Cents a year, or null to sell by the month only." }),
  benefits: z.array(z.string()).meta({ description: `At most ${MEMBERSHIP_LIMITS.benefitsMax}, each at most ${MEMBERSHIP_LIMITS.benefitMax} characters; blank ones are dropped.` }),
  memberLimit: z.int().nullable().meta({ description: `From 1 to ${MEMBERSHIP_LIMITS.memberLimitMax}, or null for no limit.` }),
  welcomeMessage: z.string().meta({ description: `At most ${MEMBERSHIP_LIMITS.welcomeMax} characters.` }),
});

const newTierSchema = fieldsSchema.partial({ yearlyPrice: true, benefits: true, memberLimit: true, welcomeMessage: true }).meta({ id: "NewMembershipTier", description: "A new tier: a name and a monthly price at least." });
const changesSchema = fieldsSchema
  .partial()
  .extend({ status: z.enum(MEMBERSHIP_TIER_STATUSES).optional().meta({ description: "`paused`, `retired`, or `active` to offer it again (within the five a page offers)." }) })
  .meta({ id: "MembershipTierChanges", description: "A partial update: only the fields you send change. New prices are for those who join from now on." });

const publicTier = (tier: MembershipTier) => ({ ...tier });

type ApiFields = Partial<{ name: string; monthlyPrice: number; yearlyPrice: number | null; benefits: string[]; memberLimit: number | null; welcomeMessage: string }>;

/** The API's cents and lists as the tiers form types them; only the fields sent. A benefit's own line break would make it two, so it is one line. */
function formFieldsOf(body: ApiFields): Partial<TierInput> {
  const fields: Partial<TierInput> = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.monthlyPrice !== undefined) fields.monthlyPrice = amountInputText(body.monthlyPrice);
  if (body.yearlyPrice !== undefined) fields.yearlyPrice = body.yearlyPrice === null ? "" : amountInputText(body.yearlyPrice);
  if (body.benefits !== undefined) fields.benefits = body.benefits.map((line) => line.replace(/[\r\n]+/g, " ")).join("\n");
  if (body.memberLimit !== undefined) fields.memberLimit = body.memberLimit === null ? "" : String(body.memberLimit);
  if (body.welcomeMessage !== undefined) fields.welcomeMessage = body.welcomeMessage;
  return fields;
}

const NEW_TIER: TierInput = { name: "", monthlyPrice: "", yearlyPrice: "", benefits: "", memberLimit: "", welcomeMessage: "" };
const pageParams = z.object({ id: bioPageIdSchema.meta({ description: "The bio page's id." }) });
const tierParams = z.object({ id: z.string().meta({ description: "The tier's id." }) });

export const membershipTierOperations: AnyApiOperation[] = [
  apiOperationOf(listMembershipTiers, {
    id: "listMembershipTiers",
    method: "get",
    path: "/bio-pages/{id}/membership-tiers",
    tag: "Memberships",
    summary: "List your page's membership tiers",
    description: `Every tier of one of your own pages in the page's order, paused and retired ones too, with how many members each has (a page offers at most ${MEMBERSHIP_LIMITS.tiersPerPage} at once). Another account's page is \`not_found\`.`,
    scope: "memberships:read",
    params: pageParams,
    success: { status: 200, description: "The page's tiers.", schema: z.object({ data: z.array(tierSchema) }).meta({ id: "MembershipTierList" }) },
    input: ({ params }) => ({ pageId: params.id }),
    answer: ({ tiers }) => ({ data: tiers.map(publicTier) }),
  }),
  apiOperationOf(createMembershipTier, {
    id: "createMembershipTier",
    method: "post",
    path: "/bio-pages/{id}/membership-tiers",
    tag: "Memberships",
    summary: "Add a membership tier",
    description: `Checked by the same rules and messages as the tiers screen; \`fields\` names each field that needs a change. A page offers at most ${MEMBERSHIP_LIMITS.tiersPerPage} tiers at once, paused ones included (\`resource_exhausted\`). Send an Idempotency-Key so a retry cannot add two.`,
    scope: "memberships:write",
    params: pageParams,
    body: newTierSchema,
    idempotent: true,
    success: { status: 201, description: "The new tier, on the page at once while it takes payments.", schema: tierSchema },
    input: ({ params, body }) => ({ pageId: params.id, fields: { ...NEW_TIER, ...formFieldsOf(body) } }),
    answer: ({ tier }) => publicTier(tier),
  }),
  apiOperationOf(updateMembershipTier, {
    id: "updateMembershipTier",
    method: "patch",
    path: "/membership-tiers/{id}",
    tag: "Memberships",
    summary: "Change a membership tier",
    description: "A partial update of one of your tiers, checked as a whole; `status` pauses, retires or offers it again. Members keep the price they joined at. Another account's tier is `not_found`.",
    scope: "memberships:write",
    params: tierParams,
    body: changesSchema,
    success: { status: 200, description: "The tier as saved.", schema: tierSchema },
    input: ({ params, body }) => ({ tierId: params.id, changes: { ...formFieldsOf(body), ...(body.status && { status: body.status }) } }),
    answer: ({ tier }) => publicTier(tier),
  }),
];
