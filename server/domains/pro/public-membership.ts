import { z } from "zod";
import { PRO_PLAN_KEYS, PRO_PLANS, type ProPlanKey } from "#isomorphic/pro-plans";

const MEMBERSHIP_STATUSES = ["active", "trialing", "past_due", "canceled", "incomplete", "unpaid"] as const;

/**
 * A Pro membership as programs outside the app see it: the `data` of the pro.started and
 * pro.ended webhook events (ADR 0057). Plain JSON, times as ISO 8601 text.
 */
export const publicMembershipSchema = z
  .object({
    plan: z.enum(PRO_PLAN_KEYS).meta({ description: "launchpad (monthly), star_power (yearly) or limitless (paid once, never ends)." }),
    planName: z.string().meta({ description: "The plan's name as the site shows it.", example: "Launchpad" }),
    status: z.enum(MEMBERSHIP_STATUSES).meta({
      description: "active or trialing: Pro. past_due: a renewal failed and is being retried; still Pro meanwhile. canceled, incomplete, unpaid: not Pro.",
    }),
    currentPeriodEnd: z.iso.datetime().nullable().meta({ description: "When the paid period ends (renews, or ends if cancelAtPeriodEnd). Null for Limitless." }),
    cancelAtPeriodEnd: z.boolean().meta({ description: "True when the member canceled: Pro stays until currentPeriodEnd, then ends." }),
  })
  .meta({ id: "ProMembership", description: "Your Pro membership when it began or ended." });

export type PublicMembership = z.infer<typeof publicMembershipSchema>;

/** What it is made from: a membership record as server/domains/pro/sync.ts writes it. */
type MembershipFields = { plan: ProPlanKey; status: (typeof MEMBERSHIP_STATUSES)[number]; currentPeriodEnd: Date | null; cancelAtPeriodEnd: boolean };

export function toPublicMembership(record: MembershipFields): PublicMembership {
  return {
    plan: record.plan,
    planName: PRO_PLANS[record.plan].name,
    status: record.status,
    currentPeriodEnd: record.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: record.cancelAtPeriodEnd,
  };
}
