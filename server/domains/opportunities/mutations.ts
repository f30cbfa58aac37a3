import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import type { DomainError } from "#server/platform/errors";
import { opportunityPosts, profiles, totals } from "#server/platform/db/schema";
import { OPPORTUNITY_POSTS_TOTAL } from "./totals";
import type { FieldErrors, OpportunityForm } from "./form";
import { isPostId, newOpportunityId } from "./ids";

type Poster = { uid: string };
export type MutationError = DomainError<"invalid-argument" | "not-found" | "permission-denied", { fieldErrors?: FieldErrors }>;

function columnsFrom(form: OpportunityForm) {
  return {
    title: form.title,
    description: form.description,
    bullets: form.bullets.length ? form.bullets : null,
    organization: form.organization,
    website: form.website,
    minContributionCents: form.minContribution * 100,
    applicationDeadline: form.deadline?.at ?? null,
    applicationDeadlineTimeZone: form.deadline?.timeZone ?? null,
    contactName: form.contactName,
    contactEmail: form.contactEmail,
    contactPhone: form.contactPhone,
    tags: form.tags,
    // Left unchosen, an edit keeps the post's way; a new post takes its poster's (below).
    ...(form.kind ? { kind: form.kind } : {}),
  };
}

function unknownTags(form: OpportunityForm, knownTags: Set<string>): MutationError | null {
  const unknown = form.tags.filter((tag) => !knownTags.has(tag));
  if (unknown.length === 0) return null;
  const message = `Unknown tag: ${unknown.map((t) => t.slice(0, 60)).join(", ")}`;
  return { kind: "ERROR", code: "invalid-argument", message, fieldErrors: { tags: message } };
}

/** Creates a post by `poster` (server time, id from it) and adds 1 to the total, in one transaction. */
export async function createOpportunity(
  db: Db,
  poster: Poster,
  form: OpportunityForm,
  knownTags: Set<string>,
  now = new Date(),
): Promise<{ kind: "SUCCESS"; id: string } | MutationError> {
  const invalid = unknownTags(form, knownTags);
  if (invalid) return invalid;
  const id = newOpportunityId(now);
  await db.transaction(async (tx) => {
    // Shared lock: a rename waits for this post, or this post waits for the rename (server/domains/accounts/profiles.ts).
    const [profile] = await tx
      .select({ name: profiles.name, userType: profiles.userType })
      .from(profiles)
      .where(eq(profiles.uid, poster.uid))
      .for("share");
    await tx.insert(opportunityPosts).values({
      id,
      kind: profile?.userType === "sponsor" ? "brief" : "request",
      ...columnsFrom(form),
      datePosted: now,
      updatedAt: now,
      posterUid: poster.uid,
      posterName: profile?.name ?? "",
    });
    await tx
      .update(totals)
      .set({ total: sql`${totals.total} + 1` })
      .where(eq(totals.name, OPPORTUNITY_POSTS_TOTAL));
  });
  return { kind: "SUCCESS", id };
}

/** Edits the owner's post; id, date posted and hearts stay as they were. */
export async function editOpportunity(
  db: Db,
  poster: Poster,
  id: string,
  form: OpportunityForm,
  knownTags: Set<string>,
): Promise<{ kind: "SUCCESS"; id: string } | MutationError> {
  if (!isPostId(id)) return NOT_FOUND;
  const invalid = unknownTags(form, knownTags);
  if (invalid) return invalid;
  const updated = await db
    .update(opportunityPosts)
    .set({ ...columnsFrom(form), updatedAt: new Date() })
    .where(and(eq(opportunityPosts.id, id), eq(opportunityPosts.posterUid, poster.uid)))
    .returning({ id: opportunityPosts.id });
  if (updated.length === 1) {
      return { kind: "SUCCESS", id };
  }
  return ownershipError(db, id);
}

/** Deletes the owner's post with every heart on it (cascade) and takes 1 off the total, atomically. */
export async function deleteOpportunity(db: Db, poster: Poster, id: string): Promise<{ kind: "SUCCESS" } | MutationError> {
  if (!isPostId(id)) return NOT_FOUND;
  const deleted = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(opportunityPosts)
      .where(and(eq(opportunityPosts.id, id), eq(opportunityPosts.posterUid, poster.uid)))
      .returning({ id: opportunityPosts.id });
    if (rows.length === 1) {
      await tx
        .update(totals)
        .set({ total: sql`greatest(${totals.total} - 1, 0)` })
        .where(eq(totals.name, OPPORTUNITY_POSTS_TOTAL));
    }
    return rows.length === 1;
  });
  if (!deleted) return ownershipError(db, id);
  return { kind: "SUCCESS" };
}

/** The pages' words for a post that is not there, and for someone else's post. */
export const NO_SUCH_POST = "This opportunity doesn't exist or was deleted.";
export const NOT_YOUR_POST = "Only the person who posted this opportunity can change it.";

const NOT_FOUND: MutationError = { kind: "ERROR", code: "not-found", message: NO_SUCH_POST };

async function ownershipError(db: Db, id: string): Promise<MutationError> {
  const [exists] = await db.select({ id: opportunityPosts.id }).from(opportunityPosts).where(eq(opportunityPosts.id, id));
  return exists
    ? { kind: "ERROR", code: "permission-denied", message: NOT_YOUR_POST }
    : NOT_FOUND;
}
