import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { connectedAccounts, ledgerEntries, proMemberships, user } from "#server/platform/db/schema";
import { payoutStateOf, type PayoutAccountState } from "#server/domains/payments/records/payments-overview";

/** The back office's other money views: Pro memberships, payout accounts, the platform's fee by month. */

/** How many rows a list shows (newest change first); the back office says when there are more. */
export const PLATFORM_LIST_LIMIT = 200;

export type ProMembershipRow = {
  uid: string;
  email: string;
  name: string;
  plan: string;
  billingPlan: string | null;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  providerCustomerId: string | null;
};

export async function proMembershipList(db: Db): Promise<ProMembershipRow[]> {
  return db
    .select({
      uid: proMemberships.uid,
      email: user.email,
      name: user.name,
      plan: proMemberships.plan,
      billingPlan: proMemberships.billingPlan,
      status: proMemberships.status,
      currentPeriodEnd: proMemberships.currentPeriodEnd,
      cancelAtPeriodEnd: proMemberships.cancelAtPeriodEnd,
      providerCustomerId: proMemberships.providerCustomerId,
    })
    .from(proMemberships)
    .innerJoin(user, eq(user.id, proMemberships.uid))
    .orderBy(desc(proMemberships.updatedAt), proMemberships.uid)
    .limit(PLATFORM_LIST_LIMIT + 1);
}

export type PayoutAccountRow = { uid: string; email: string; name: string; accountType: string; providerAccountId: string | null; state: PayoutAccountState; created: Date };

export async function payoutAccountList(db: Db): Promise<PayoutAccountRow[]> {
  const rows = await db
    .select({
      uid: connectedAccounts.uid,
      email: user.email,
      name: user.name,
      accountType: connectedAccounts.accountType,
      providerAccountId: connectedAccounts.providerAccountId,
      completed: connectedAccounts.completed,
      created: connectedAccounts.created,
    })
    .from(connectedAccounts)
    .innerJoin(user, eq(user.id, connectedAccounts.uid))
    .orderBy(desc(connectedAccounts.created), connectedAccounts.uid)
    .limit(PLATFORM_LIST_LIMIT + 1);
  return rows.map(({ completed, ...row }) => ({ ...row, state: payoutStateOf({ completed, providerAccountId: row.providerAccountId }) }));
}

/** The platform's fee by UTC month and currency: what it kept (fees less those returned), the processor's fees it paid, and the margin. */
export type MonthlyFee = { month: string; currency: string; platformFee: number; providerFee: number; margin: number };

export async function platformFeeByMonth(db: Db): Promise<MonthlyFee[]> {
  const month = sql<string>`to_char(date_trunc('month', ${ledgerEntries.created} at time zone 'UTC'), 'YYYY-MM')`;
  const rows = await db
    .select({
      month,
      currency: ledgerEntries.currency,
      platformFee: sql<string>`sum(${ledgerEntries.platformFee})::bigint::text`,
      providerFee: sql<string>`sum(${ledgerEntries.providerFee})::bigint::text`,
    })
    .from(ledgerEntries)
    .groupBy(month, ledgerEntries.currency)
    .orderBy(desc(month), ledgerEntries.currency);
  return rows.map((r) => {
    const platformFee = Number(r.platformFee);
    const providerFee = Number(r.providerFee);
    return { month: r.month, currency: r.currency, platformFee, providerFee, margin: platformFee - providerFee };
  });
}
