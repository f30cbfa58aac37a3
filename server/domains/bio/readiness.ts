import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import type { Db } from "#server/platform/db/client";
import { bioPageViews, bioPages, connectedAccounts, membershipTiers, profiles } from "#server/platform/db/schema";
import { OWN_PAGE_COLUMNS, OWN_PAGES_ORDER, type OwnBioPage } from "./pages";

/**
 * "Can this page take money?" and the setup checklist that gets it there
 * (docs/decisions/0036-creator-home.md). Two steps decide it: a complete
 * payout account (the same rule the public page uses: connected_accounts.completed,
 * public-page.ts `takesPayments`) and tips switched on for the page.
 */

/**
 * The setup checklist a new creator works through, in its order. It stays on
 * screen until every step is done: the two money steps above, and the ones that
 * make the page theirs and known: a photo, a theme chosen, the link copied
 * (recorded when they copy it from the checklist) and the first share (done
 * when the page has its first counted visitor, the only proof a share reached
 * someone).
 */
export const SETUP_STEPS = ["photo", "theme", "payouts", "tips", "copy", "share"] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];
export type SetupProgress = { done: Record<SetupStep, boolean>; doneCount: number; complete: boolean };

export type SetupFacts = { hasPhoto: boolean; themeChosen: boolean; payoutsConnected: boolean; tipsOn: boolean; linkCopied: boolean; views: number };

/** Which checklist steps a page's facts tick. */
export function judgeSetup(facts: SetupFacts): SetupProgress {
  const done: Record<SetupStep, boolean> = {
    photo: facts.hasPhoto,
    theme: facts.themeChosen,
    payouts: facts.payoutsConnected,
    tips: facts.tipsOn,
    copy: facts.linkCopied,
    share: facts.views > 0,
  };
  const doneCount = SETUP_STEPS.filter((step) => done[step]).length;
  return { done, doneCount, complete: doneCount === SETUP_STEPS.length };
}

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

const SETUP_COLUMNS = {
  hasPhoto: sql<boolean>`(${profiles.photoId} is not null)`.mapWith(Boolean),
  themeChosen: sql<boolean>`(${bioPages.theme} is not null)`.mapWith(Boolean),
  linkCopied: sql<boolean>`(${bioPages.linkCopiedAt} is not null)`.mapWith(Boolean),
};

/**
 * The owner's pages as listOwnPages lists them, each with its readiness and its setup checklist's
 * progress, in one statement. Reads only `uid`'s own rows.
 */
export async function ownPagesWithReadiness(db: Db, uid: string): Promise<(OwnBioPage & { readiness: PageReadiness; setup: SetupProgress; offersTiers: boolean })[]> {
  const rows = await db
    .select({
      page: OWN_PAGE_COLUMNS,
      readiness: READINESS_COLUMNS,
      setup: SETUP_COLUMNS,
      // Whether the page has membership tiers (any state): the home shows its Members card then.
      offersTiers: sql<boolean>`exists (select 1 from ${membershipTiers} where ${membershipTiers.bioPageId} = ${bioPages.id})`.mapWith(Boolean),
    })
    .from(bioPages)
    .leftJoin(bioPageViews, eq(bioPageViews.pageId, bioPages.id))
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, bioPages.uid))
    .leftJoin(profiles, eq(profiles.uid, bioPages.uid))
    .where(eq(bioPages.uid, uid))
    .orderBy(...OWN_PAGES_ORDER);
  return rows.map(({ page, readiness, setup, offersTiers }) => {
    const payoutsConnected = readiness.payoutsConnected === true;
    return {
      ...page,
      offersTiers,
      readiness: judgeReadiness({ ...readiness, payoutsConnected }),
      setup: judgeSetup({ ...setup, payoutsConnected, tipsOn: readiness.tipsOn, views: page.views }),
    };
  });
}

/** Ticks the checklist's "Copy your link" step of the owner's page (the first copy is kept); false for a page that is not theirs. */
export async function recordLinkCopied(db: Db, uid: string, pageId: string, now = new Date()): Promise<boolean> {
  const mine = await db
    .update(bioPages)
    .set({ linkCopiedAt: now })
    .where(and(eq(bioPages.id, pageId), eq(bioPages.uid, uid), isNull(bioPages.linkCopiedAt)))
    .returning({ id: bioPages.id });
  if (mine.length > 0) return true;
  const [already] = await db.select({ id: bioPages.id }).from(bioPages).where(and(eq(bioPages.id, pageId), eq(bioPages.uid, uid), isNotNull(bioPages.linkCopiedAt)));
  return already !== undefined;
}

