import { asc, eq } from "drizzle-orm";
import { ownerIsActive } from "#server/accounts/active-owner";
import type { Db } from "#server/db/client";
import { bioPages, connectedAccounts } from "#server/db/schema";

/**
 * "Can this page take money?" and the setup checklist that gets it there
 * (docs/decisions/0036-creator-home.md). Two steps decide it: a complete
 * payout account (the same rule the public page uses: connected_accounts.completed,
 * public-page.ts `takesPayments`) and tips switched on for the page. The third,
 * sharing the link, is never "done": it is always there to do, and a page
 * can take money before anyone has seen it.
 */
export const SETUP_STEPS = ["payouts", "tips", "share"] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** What blocks a page from taking money, first to fix first; empty when it can. */
export type Blocker = "owner-disabled" | "payouts" | "tips";

export type PageReadiness = {
  pageId: string;
  payoutsConnected: boolean;
  tipsOn: boolean;
  ownerActive: boolean;
  canTakeMoney: boolean;
  /** The first thing to do, or null when the page takes money. */
  nextStep: Blocker | null;
};

export type ReadinessRow = { pageId: string; payoutsConnected: boolean; tipsOn: boolean; ownerActive: boolean };

/** The rule on its own, for one page's facts. */
export function judgeReadiness(row: ReadinessRow): PageReadiness {
  const nextStep: Blocker | null = !row.ownerActive ? "owner-disabled" : !row.payoutsConnected ? "payouts" : !row.tipsOn ? "tips" : null;
  return { ...row, canTakeMoney: nextStep === null, nextStep };
}

/** Each of the owner's pages, as the dashboard lists them (by id; the caller orders). Reads only `uid`'s own rows. */
export async function readinessOfOwnPages(db: Db, uid: string): Promise<PageReadiness[]> {
  const rows = await db
    .select({
      pageId: bioPages.id,
      payoutsConnected: connectedAccounts.completed,
      tipsOn: bioPages.acceptTips,
      ownerActive: ownerIsActive(bioPages.uid).mapWith(Boolean),
    })
    .from(bioPages)
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, bioPages.uid))
    .where(eq(bioPages.uid, uid))
    .orderBy(asc(bioPages.id));
  return rows.map((row) => judgeReadiness({ ...row, payoutsConnected: row.payoutsConnected === true }));
}

