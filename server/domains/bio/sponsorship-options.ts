import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { opportunityPosts, profiles, type BioPageSponsorship } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";
import { isPostId } from "#server/domains/opportunities/ids";

/** A post the owner may offer as a sponsorship option. */
export type SponsorshipChoice = { id: string; title: string; minContributionCents: number; currency: string };

/** An option as the public page offers it: the choice and what the sponsor gets (the post's benefits, else its description). */
export type SponsorshipOffer = SponsorshipChoice & { benefits: string[]; description: string };

export type SponsorshipChoices = { paymentsEnabled: boolean; posts: SponsorshipChoice[] };

type Reader = Pick<Db, "select">;

const choiceColumns = {
  id: opportunityPosts.id,
  title: opportunityPosts.title,
  minContributionCents: opportunityPosts.minContributionCents,
  currency: opportunityPosts.currency,
};

/** Whether the owner's profile can take payments (SPEC §5: sponsorship options need it). */
async function paymentsEnabledFor(db: Reader, uid: string): Promise<boolean> {
  const [profile] = await db.select({ enabled: profiles.paymentsEnabled }).from(profiles).where(eq(profiles.uid, uid));
  return profile?.enabled ?? false;
}

/**
 * What the picker offers (SPEC §5): the owner's own posts, newest first, and
 * only when their profile has payments enabled; otherwise nothing, and the
 * form says why.
 */
export async function sponsorshipChoices(db: Reader, uid: string): Promise<SponsorshipChoices> {
  if (!(await paymentsEnabledFor(db, uid))) return { paymentsEnabled: false, posts: [] };
  const posts = await db.select(choiceColumns).from(opportunityPosts).where(eq(opportunityPosts.posterUid, uid)).orderBy(desc(opportunityPosts.datePosted)).limit(200);
  return { paymentsEnabled: true, posts };
}

/**
 * The chosen post ids as stored options, or why they can't be: every one
 * must be the owner's post and the owner must take payments. Duplicates are
 * already gone (server/domains/bio/form.ts).
 */
export async function checkSponsorships(
  db: Reader,
  uid: string,
  postIds: string[],
): Promise<{ kind: "SUCCESS"; options: BioPageSponsorship[] } | DomainError<"invalid-argument", { fieldErrors: Record<string, string> }>> {
  if (postIds.length === 0) return { kind: "SUCCESS", options: [] };
  const refuse = (message: string) => domainError("invalid-argument", message, { fieldErrors: { sponsorships: message } });
  if (!(await paymentsEnabledFor(db, uid))) return refuse("Set up payments before you offer sponsorship options");
  const valid = postIds.every(isPostId);
  const own = valid
    ? new Set(
        (await db.select({ id: opportunityPosts.id }).from(opportunityPosts).where(and(inArray(opportunityPosts.id, postIds), eq(opportunityPosts.posterUid, uid)))).map(
          (p) => p.id,
        ),
      )
    : new Set<string>();
  if (!postIds.every((id) => own.has(id))) return refuse("You can only offer your own opportunities as sponsorship options");
  return { kind: "SUCCESS", options: postIds.map((post_id) => ({ post_id })) };
}

/** The options a public page shows, in the owner's order: posts still there, and only while payments are on. */
export async function publicSponsorshipOptions(db: Reader, uid: string, chosen: BioPageSponsorship[]): Promise<SponsorshipOffer[]> {
  if (chosen.length === 0) return [];
  if (!(await paymentsEnabledFor(db, uid))) return [];
  const ids = chosen.map((s) => s.post_id);
  const columns = { ...choiceColumns, description: opportunityPosts.description, bullets: opportunityPosts.bullets };
  const rows = await db.select(columns).from(opportunityPosts).where(and(inArray(opportunityPosts.id, ids), eq(opportunityPosts.posterUid, uid), isNull(opportunityPosts.removedAt)));
  const posts = rows.map(({ bullets, ...post }) => ({ ...post, benefits: (bullets ?? []).map((b) => b.trim()).filter(Boolean) }));
  const byId = new Map(posts.map((p) => [p.id, p]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
