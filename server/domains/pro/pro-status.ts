import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { proMemberships } from "#server/platform/db/schema";
import type { ProPlanKey } from "#isomorphic/pro-plans";

export type ProStatus = {
  isPro: boolean;
  plan: ProPlanKey | null;
  /** When a subscription's paid time ends (renewal or, if cancelled, the end); null for Limitless or none. */
  currentPeriodEnd: Date | null;
  /** The provider is retrying a failed renewal: still Pro, with a notice to update the card. */
  renewalFailed: boolean;
  /** Cancelled by the member: Pro until `currentPeriodEnd`, then not (false for Limitless or none). */
  cancelAtPeriodEnd: boolean;
  /**
   * Limitless bought by a subscriber: the subscription still billing beside it
   * until its period ends (`renews` false once it is set to end there, which
   * buying Limitless does). Null otherwise. Every Pro screen shows it.
   */
  stillBilling: { plan: "launchpad" | "star_power"; periodEnd: Date; renews: boolean } | null;
};

const NOT_PRO: ProStatus = { isPro: false, plan: null, currentPeriodEnd: null, renewalFailed: false, cancelAtPeriodEnd: false, stillBilling: null };

/** Statuses in which a subscription's paid period counts; past_due keeps Pro while the provider retries. */
const PRO_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(["active", "trialing", "past_due"]);

/**
 * Whether `uid` is Pro now. The one reader every gate uses (guards.ts,
 * server/domains/sponsor-directory/). It trusts what sync.ts last wrote, and the clock: a
 * subscription whose period has ended is not Pro even before the provider's
 * "deleted" event arrives; Limitless never ends.
 */
export async function getProStatus(db: Db, uid: string, now: Date = new Date()): Promise<ProStatus> {
  const [row] = await db.select().from(proMemberships).where(eq(proMemberships.uid, uid));
  if (!row) return NOT_PRO;
  if (row.plan === "limitless") {
    const billing = row.billingPlan && row.currentPeriodEnd && row.currentPeriodEnd.getTime() > now.getTime() ? { plan: row.billingPlan, periodEnd: row.currentPeriodEnd, renews: !row.cancelAtPeriodEnd } : null;
    return { isPro: row.status === "active", plan: row.plan, currentPeriodEnd: null, renewalFailed: false, cancelAtPeriodEnd: false, stillBilling: billing as ProStatus["stillBilling"] };
  }
  const inPeriod = row.currentPeriodEnd !== null && row.currentPeriodEnd.getTime() > now.getTime();
  const isPro = inPeriod && PRO_SUBSCRIPTION_STATUSES.has(row.status);
  return { isPro, plan: row.plan, currentPeriodEnd: row.currentPeriodEnd, renewalFailed: isPro && row.status === "past_due", cancelAtPeriodEnd: isPro && row.cancelAtPeriodEnd, stillBilling: null };
}
