import { eq } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import type { Db } from "#server/platform/db/client";
import { bioPageViews, bioPages, connectedAccounts } from "#server/platform/db/schema";
import { OWN_PAGE_COLUMNS, OWN_PAGES_ORDER, type OwnBioPage } from "./pages";

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

const READINESS_COLUMNS = {
  pageId: bioPages.id,
  payoutsConnected: connectedAccounts.completed,
  tipsOn: bioPages.acceptTips,
  ownerActive: ownerIsActive(bioPages.uid).mapWith(Boolean),
};

/** The owner's pages as listOwnPages lists them, each with its readiness, in one statement. Reads only `uid`'s own rows. */
export async function ownPagesWithReadiness(db: Db, uid: string): Promise<(OwnBioPage & { readiness: PageReadiness })[]> {
  const rows = await db
    .select({ page: OWN_PAGE_COLUMNS, readiness: READINESS_COLUMNS })
    .from(bioPages)
    .leftJoin(bioPageViews, eq(bioPageViews.pageId, bioPages.id))
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, bioPages.uid))
    .where(eq(bioPages.uid, uid))
    .orderBy(...OWN_PAGES_ORDER);
  return rows.map(({ page, readiness }) => ({ ...page, readiness: judgeReadiness({ ...readiness, payoutsConnected: readiness.payoutsConnected === true }) }));
}

