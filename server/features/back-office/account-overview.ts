import type { Db } from "#server/platform/db/client";
import { DISPUTE_WINDOW_DAYS, disputeRatioOf } from "#server/domains/payments/disputes/dispute-queue";
import { accountMoney, type AccountMoney } from "./account-money";
import { openReportsOnAccount, type OpenReportedItem } from "./account-reports";
import { accountMemberships, type AccountMemberships } from "./memberships";

/** What staff weigh on an account's page beside who it is: its money, its card dispute ratio, the open reports against it and its memberships. */
export type AccountOverview = {
  money: AccountMoney[];
  /** Disputes opened ÷ payments paid, both over the last `windowDays` (the creator flag's own window and rule, ADR 0053). */
  disputes: { windowDays: number; disputes: number; payments: number; ratio: number; flagged: boolean };
  reports: OpenReportedItem[];
  memberships: AccountMemberships;
};

export async function accountOverview(db: Db, uid: string, now = new Date()): Promise<AccountOverview> {
  const [money, ratio, reports, ofMemberships] = await Promise.all([accountMoney(db, uid), disputeRatioOf(db, uid, now), openReportsOnAccount(db, uid), accountMemberships(db, uid)]);
  return {
    money,
    disputes: { windowDays: DISPUTE_WINDOW_DAYS, disputes: ratio.disputes, payments: ratio.payments, ratio: ratio.ratio, flagged: ratio.flagged },
    reports,
    memberships: ofMemberships,
  };
}
