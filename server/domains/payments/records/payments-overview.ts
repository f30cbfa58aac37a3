import type { SponsorSessionKind } from "#server/platform/db/schema";
import { desc, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, profiles, sponsorSessions, user, type SponsorSessionStatus } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";
import { ownerTotals, type Totals } from "#server/domains/payments/ledger/ledger";
import { dealEarnings, type DealEarning, type DealEarningsKeyset } from "#server/domains/payments/records/deal-earnings";
import { expireStalePendingSessions } from "#server/domains/payments/checkout/stale-sessions";
import type { AccountType, PaymentProvider } from "#server/providers/payments/port";

/**
 * What My Payments shows: the payout account's state, the
 * money received (from the ledger) and the payments the person made as a
 * sponsor. Reads only the signed-in person's own rows.
 */
export type PayoutAccountState = "none" | "incomplete" | "complete";

export type PayoutAccount = { state: PayoutAccountState; accountType: AccountType | null };

export async function payoutAccountOf(db: Db, uid: string): Promise<PayoutAccount> {
  const [row] = await db
    .select({ completed: connectedAccounts.completed, accountType: connectedAccounts.accountType, providerAccountId: connectedAccounts.providerAccountId })
    .from(connectedAccounts)
    .where(eq(connectedAccounts.uid, uid));
  if (!row) return { state: "none", accountType: null };
  const state = payoutStateOf(row);
  return { state, accountType: state === "none" ? null : (row.accountType as AccountType) };
}

/** A payout account's state from its row: one whose provider account was never made (the provider failed) is no account yet. */
export function payoutStateOf(row: { completed: boolean; providerAccountId: string | null }): PayoutAccountState {
  if (!row.providerAccountId) return "none";
  return row.completed ? "complete" : "incomplete";
}

export type PaymentMade = {
  id: string;
  created: Date;
  /** The bio page's name, else the creator's profile or account name. */
  payee: string;
  kind: SponsorSessionKind;
  amount: number;
  currency: string;
  status: SponsorSessionStatus;
};

/** How many of the person's own payments My Payments lists, newest first. */
export const PAYMENTS_MADE_LIMIT = 50;

export async function paymentsMadeBy(db: Db, uid: string, limit = PAYMENTS_MADE_LIMIT): Promise<PaymentMade[]> {
  // A checkout the provider has closed shows as expired, not pending (server/domains/payments/checkout/stale-sessions.ts).
  await expireStalePendingSessions(db, { sponsorUid: uid });
  const rows = await db
    .select({
      id: sponsorSessions.id,
      created: sponsorSessions.created,
      kind: sponsorSessions.kind,
      amount: sponsorSessions.amount,
      currency: sponsorSessions.currency,
      status: sponsorSessions.status,
      pageName: bioPages.name,
      profileName: profiles.name,
      userName: user.name,
    })
    .from(sponsorSessions)
    .leftJoin(bioPages, eq(bioPages.id, sponsorSessions.bioPageId))
    .leftJoin(profiles, eq(profiles.uid, sponsorSessions.posterUid))
    .leftJoin(user, eq(user.id, sponsorSessions.posterUid))
    .where(eq(sponsorSessions.sponsorUid, uid))
    .orderBy(desc(sponsorSessions.created), desc(sponsorSessions.id))
    .limit(limit);
  return rows.map(({ pageName, profileName, userName, ...row }) => ({
    ...row,
    payee: pageName || profileName || userName || "A creator",
  }));
}

export type PaymentsOverview = {
  account: PayoutAccount;
  /** Tips, sponsorships and released deals, per currency. */
  received: Totals[];
  /** A page of the deals released to the person as creator, newest first, and where the next page starts. */
  deals: { earnings: DealEarning[]; next: DealEarningsKeyset | null };
  made: PaymentMade[];
};

export async function paymentsOverview(db: Db, uid: string, { dealsAfter = null }: { dealsAfter?: DealEarningsKeyset | null } = {}): Promise<PaymentsOverview> {
  const [account, received, deals, made] = await Promise.all([
    payoutAccountOf(db, uid),
    ownerTotals(db, uid),
    dealEarnings(db, uid, { after: dealsAfter }),
    paymentsMadeBy(db, uid),
  ]);
  return { account, received, deals, made };
}

export type DashboardLinkResult = { kind: "SUCCESS"; url: string } | DomainError<"not-found" | "unavailable">;

/** The provider's payouts dashboard for the person's own account (SPEC §7.1 createLoginLink). */
export async function payoutsDashboardLink(db: Db, provider: PaymentProvider, uid: string): Promise<DashboardLinkResult> {
  const [row] = await db.select({ providerAccountId: connectedAccounts.providerAccountId }).from(connectedAccounts).where(eq(connectedAccounts.uid, uid));
  if (!row?.providerAccountId) return domainError("not-found", "You don't have a payout account yet. Set up payments first.");
  try {
    const { url } = await provider.createLoginLink({ accountId: row.providerAccountId });
    return { kind: "SUCCESS", url };
  } catch {
    return domainError("unavailable", "The payment provider could not be reached. Please try again in a moment.");
  }
}
