import type { Db } from "#server/platform/db/client";
import { DISPUTE_WINDOW_DAYS, disputeRatioOf } from "#server/domains/payments/disputes/dispute-queue";
import { accountMoney, type AccountMoney } from "./account-money";
import { openReportsOnAccount, type OpenReportedItem } from "./account-reports";

/** What staff weigh on an account's page beside who it is: its money, its card dispute ratio and the open reports against it. */
export type AccountOverview = {
  money: AccountMoney[];
  /** Disputes opened ÷ payments paid, both over the last `windowDays` (the creator flag's own window and rule, ADR 0053). */
  disputes: { windowDays: number; disputes: number; payments: number; ratio: number; flagged: boolean };
  reports: OpenReportedItem[];
};

export async function accountOverview(db: Db, uid: string, now = new Date()): Promise<AccountOverview> {
  const [money, ratio, reports] = await Promise.all([accountMoney(db, uid), disputeRatioOf(db, uid, now), openReportsOnAccount(db, uid)]);
  return { money, disputes: { windowDays: DISPUTE_WINDOW_DAYS, disputes: ratio.disputes, payments: ratio.payments, ratio: ratio.ratio, flagged: ratio.flagged }, reports };
}
