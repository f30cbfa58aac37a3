import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { BioTheme } from "#isomorphic/bio-theme";
import type { Db } from "#server/platform/db/client";
import { bioPageViews, bioPages, memberships, opportunityPosts, user, type BioPageLink } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";
import { couldBeEnding, defaultEndingFor, ENDING_TAKEN_MESSAGE, isBioPageId, newBioPageId } from "./endings";
import type { BioPageFieldErrors, BioPageForm } from "./form";
import { checkSponsorships } from "./sponsorship-options";

/** How many bio pages one person may own (docs/decisions/0016-bio-pages.md). */
export const MAX_PAGES_PER_OWNER = 5;

type Owner = { uid: string };
export type BioPageError = DomainError<"invalid-argument" | "not-found" | "resource-exhausted", { fieldErrors?: BioPageFieldErrors }>;

/** A row of the owner's dashboard (SPEC §3 "Page"). */
export type OwnBioPage = { id: string; customEnding: string; name: string; created: Date; updatedAt: Date; views: number };

/** The owner's pages, last updated first, with their views. */
export async function listOwnPages(db: Db, uid: string): Promise<OwnBioPage[]> {
  return db
    .select(OWN_PAGE_COLUMNS)
    .from(bioPages)
    .leftJoin(bioPageViews, eq(bioPageViews.pageId, bioPages.id))
    .where(eq(bioPages.uid, uid))
    .orderBy(...OWN_PAGES_ORDER);
}

/** An OwnBioPage's columns, for a query that reads more beside them (readiness.ts); joins bio_page_views. */
export const OWN_PAGE_COLUMNS = {
  id: bioPages.id,
  customEnding: bioPages.customEnding,
  name: bioPages.name,
  created: bioPages.created,
  updatedAt: bioPages.updatedAt,
  views: sql<number>`coalesce(${bioPageViews.count}, 0)`.mapWith(Number),
};
/** Last updated first, as the dashboard lists them. */
export const OWN_PAGES_ORDER = [desc(bioPages.updatedAt), asc(bioPages.id)] as const;

export type EditableBioPage = {
  id: string;
  customEnding: string;
  name: string;
  blurb: string;
  links: BioPageLink[];
  /** Chosen post ids whose post still exists. */
  sponsorships: string[];
  /** The look as stored (null: never chosen; `themeOf` reads it). */
  theme: BioTheme | null;
  updatedAt: Date;
};

const NOT_FOUND = domainError("not-found", "This page doesn't exist or was deleted.");

/** One of the owner's pages for the edit form; someone else's page is "not found", as a missing one. */
export async function getOwnPage(db: Db, owner: Owner, id: string): Promise<{ kind: "SUCCESS"; page: EditableBioPage } | BioPageError> {
  if (!isBioPageId(id)) return NOT_FOUND;
  const [page] = await db
    .select({
      id: bioPages.id,
      customEnding: bioPages.customEnding,
      name: bioPages.name,
      blurb: bioPages.blurb,
      links: bioPages.links,
      sponsorships: bioPages.sponsorships,
      theme: bioPages.theme,
      updatedAt: bioPages.updatedAt,
    })
    .from(bioPages)
    .where(and(eq(bioPages.id, id), eq(bioPages.uid, owner.uid)));
  if (!page) return NOT_FOUND;
  const chosen = page.sponsorships.map((s) => s.post_id);
  const existing = chosen.length
    ? new Set((await db.select({ id: opportunityPosts.id }).from(opportunityPosts).where(inArray(opportunityPosts.id, chosen))).map((p) => p.id))
    : new Set<string>();
  return { kind: "SUCCESS", page: { ...page, sponsorships: chosen.filter((postId) => existing.has(postId)) } };
}

/** Creates a page with its views record at 0 (SPEC §4), in one transaction. */
export async function createBioPage(db: Db, owner: Owner, form: BioPageForm, now = new Date()): Promise<{ kind: "SUCCESS"; id: string; customEnding: string } | BioPageError> {
  const id = newBioPageId();
  const customEnding = form.customEnding || defaultEndingFor(id);
  const result = await db.transaction(async (tx): Promise<BioPageError | null> => {
    // One creation per owner at a time, so the page limit holds under concurrent requests.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, owner.uid)).for("update");
    const [{ owned } = { owned: 0 }] = await tx.select({ owned: count() }).from(bioPages).where(eq(bioPages.uid, owner.uid));
    if (owned >= MAX_PAGES_PER_OWNER) {
      return domainError("resource-exhausted", `You can have at most ${MAX_PAGES_PER_OWNER} pages. Delete one to make room for a new one.`);
    }
    const sponsorships = await checkSponsorships(tx, owner.uid, form.sponsorships);
    if (sponsorships.kind === "ERROR") return sponsorships;
    const inserted = await tx
      .insert(bioPages)
      .values({ id, uid: owner.uid, customEnding, name: form.name, blurb: form.blurb, links: form.links, sponsorships: sponsorships.options, created: now, updatedAt: now })
      .onConflictDoNothing({ target: bioPages.customEnding })
      .returning({ id: bioPages.id });
    if (inserted.length === 0) return endingTaken();
    await tx.insert(bioPageViews).values({ pageId: id, uid: owner.uid, count: 0 });
    return null;
  });
  if (result) return result;
  return { kind: "SUCCESS", id, customEnding };
}

/**
 * Saves the form over the owner's page (SPEC §4 "edited (merged)": the id,
 * ending, owner, creation date and views stay). The ending is permanent: a
 * form that names another one is refused.
 */
export async function editBioPage(db: Db, owner: Owner, id: string, form: BioPageForm): Promise<{ kind: "SUCCESS"; id: string; customEnding: string } | BioPageError> {
  if (!isBioPageId(id)) return NOT_FOUND;
  const result = await db.transaction(async (tx): Promise<BioPageError | { customEnding: string }> => {
    const [page] = await tx
      .select({ customEnding: bioPages.customEnding, sponsorships: bioPages.sponsorships })
      .from(bioPages)
      .where(and(eq(bioPages.id, id), eq(bioPages.uid, owner.uid)))
      .for("update");
    if (!page) return NOT_FOUND;
    if (form.customEnding !== "" && form.customEnding !== page.customEnding) {
      const message = "The custom ending is permanent and can't be changed";
      return domainError("invalid-argument", message, { fieldErrors: { customEnding: message } });
    }
    // Options already on the page stay while payments are off (the public page hides them until
    // payments are back), so editing the name never wipes them; only new ones need payments now.
    const stored = new Set(page.sponsorships.map((s) => s.post_id));
    const added = form.sponsorships.filter((postId) => !stored.has(postId));
    const checked = await checkSponsorships(tx, owner.uid, added);
    if (checked.kind === "ERROR") return checked;
    const keptIds = form.sponsorships.filter((postId) => stored.has(postId));
    const stillThere = keptIds.length
      ? new Set((await tx.select({ id: opportunityPosts.id }).from(opportunityPosts).where(and(inArray(opportunityPosts.id, keptIds), eq(opportunityPosts.posterUid, owner.uid)))).map((p) => p.id))
      : new Set<string>();
    const sponsorships = form.sponsorships.filter((postId) => !stored.has(postId) || stillThere.has(postId)).map((post_id) => ({ post_id }));
    await tx
      .update(bioPages)
      .set({ name: form.name, blurb: form.blurb, links: form.links, sponsorships, updatedAt: new Date() })
      .where(eq(bioPages.id, id));
    return { customEnding: page.customEnding };
  });
  if ("kind" in result) return result;
  return { kind: "SUCCESS", id, customEnding: result.customEnding };
}

/** What a page with current members answers to Delete: their subscriptions must end first, or they would go on paying for nothing. */
export function pageHasMembersMessage(members: number): string {
  return `This page has ${members} current ${members === 1 ? "member" : "members"}. End their memberships on Members before deleting the page, so nobody is charged for a page that is gone.`;
}

/**
 * Deletes the owner's page and its views record together (SPEC §4); its address then 404s. A page
 * whose members still pay is refused (ADR 0084): the rows would go and the provider would go on
 * charging them.
 */
export async function deleteBioPage(db: Db, owner: Owner, id: string): Promise<{ kind: "SUCCESS"; customEnding: string } | BioPageError | DomainError<"aborted">> {
  if (!isBioPageId(id)) return NOT_FOUND;
  const [current] = await db
    .select({ members: count() })
    .from(memberships)
    .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .where(and(eq(memberships.bioPageId, id), eq(bioPages.uid, owner.uid), inArray(memberships.status, ["active", "past_due", "cancelled"])));
  if (current && current.members > 0) return domainError("aborted", pageHasMembersMessage(current.members));
  const deleted = await db.transaction(async (tx) => {
    await tx.delete(bioPageViews).where(and(eq(bioPageViews.pageId, id), eq(bioPageViews.uid, owner.uid)));
    return tx
      .delete(bioPages)
      .where(and(eq(bioPages.id, id), eq(bioPages.uid, owner.uid)))
      .returning({ customEnding: bioPages.customEnding });
  });
  if (deleted.length === 0) return NOT_FOUND;
  return { kind: "SUCCESS", customEnding: deleted[0]!.customEnding };
}

/**
 * Whether another page has this ending already. The insert's unique
 * constraint decides for real; this only lets a form that fails on other
 * fields say so about the ending too, all messages at once.
 */
export async function isEndingTaken(db: Pick<Db, "select">, ending: string): Promise<boolean> {
  if (!couldBeEnding(ending)) return false;
  const [page] = await db.select({ id: bioPages.id }).from(bioPages).where(eq(bioPages.customEnding, ending));
  return page !== undefined;
}

function endingTaken(): BioPageError {
  return domainError("invalid-argument", ENDING_TAKEN_MESSAGE, { fieldErrors: { customEnding: ENDING_TAKEN_MESSAGE } });
}
