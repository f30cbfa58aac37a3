import { and, asc, count, desc, eq, gt, inArray, or, sql } from "drizzle-orm";
import { customAlphabet } from "nanoid";
import type { Db } from "#server/platform/db/client";
import { bioPages, memberPosts, memberships, membershipTiers, user } from "#server/platform/db/schema";
import { domainError, fieldRefusal, refusal, success, type DomainError, type FieldRefusal, type Refusal, type Result } from "#server/platform/errors";
import { MEMBERSHIP_LIMITS } from "#isomorphic/membership-limits";
import { audienceLabel, normalisePostBody, postParagraphs } from "#isomorphic/member-post-text";
import { readMemberToken } from "./member-link";
import type { TaskSink } from "#server/platform/jobs/task-queue";
import { currentMembershipAt, isCurrentMembership, MEMBER_POST_TASK, recipientsOf, type PostAudience } from "./post-mail";

export { currentMembershipAt, isCurrentMembership, recipientsOf, type PostAudience };

/**
 * A creator writes to their members (ADR 0084): one post to every current member of one of their
 * pages, or to one tier's, by mail and on the members-only page that only current members' signed
 * links open. "Current" is what a member is while their membership runs: active, past due (the
 * provider is still retrying), or cancelled with the paid period not over yet.
 */

const DAY_MS = 86_400_000;

/** A post's id: random, and made when the creator previews, so Send pressed twice (or again after a failure) is one post. */
const newPostId = customAlphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 20);
export const draftPostId = (): string => `post_${newPostId()}`;
const POST_ID_FORMAT = /^post_[A-Za-z0-9]{20}$/;

// --- The compose form

export type PostFormInput = { audience: string; subject: string; body: string; postId?: string };
export type PostFieldErrors = Partial<Record<"audience" | "subject" | "body", string>>;
export type PostDraft = { audience: { kind: "page" | "tier"; id: string }; subject: string; body: string };

export const POST_MESSAGES = {
  audience: "Choose who gets this post",
  subjectRequired: "Write a subject",
  subjectTooLong: `Keep the subject to ${MEMBERSHIP_LIMITS.postSubjectMax} characters`,
  subjectLines: "The subject is one line",
  bodyRequired: "Write your post",
  bodyTooLong: `Keep the post to ${MEMBERSHIP_LIMITS.postBodyMax.toLocaleString("en-US")} characters`,
  nobody: "Nobody would get this post: there is no current member here who gets posts by email.",
} as const;

/** The form as typed, checked field by field (every message at once). */
export function parsePostForm(input: PostFormInput): Result<{ draft: PostDraft }, FieldRefusal<PostFieldErrors>> {
  const errors: PostFieldErrors = {};
  const audience = /^(page|tier):([A-Za-z0-9_-]{1,64})$/.exec(input.audience);
  if (!audience) errors.audience = POST_MESSAGES.audience;
  const subject = input.subject.trim();
  if (!subject) errors.subject = POST_MESSAGES.subjectRequired;
  else if (/[\r\n]/.test(subject)) errors.subject = POST_MESSAGES.subjectLines;
  else if ([...subject].length > MEMBERSHIP_LIMITS.postSubjectMax) errors.subject = POST_MESSAGES.subjectTooLong;
  const body = normalisePostBody(input.body);
  if (!body) errors.body = POST_MESSAGES.bodyRequired;
  else if ([...body].length > MEMBERSHIP_LIMITS.postBodyMax) errors.body = POST_MESSAGES.bodyTooLong;
  if (Object.keys(errors).length > 0 || !audience) return fieldRefusal(errors);
  return success({ draft: { audience: { kind: audience[1] as "page" | "tier", id: audience[2]! }, subject, body } });
}

// --- What the creator chooses from

export type ComposeChoices = {
  pages: { id: string; name: string; customEnding: string; tiers: { id: string; name: string; status: string }[] }[];
};

/** The creator's pages and each page's tiers (retired ones too: their members may still be current). */
export async function readComposeChoices(db: Db, owner: { uid: string }): Promise<ComposeChoices> {
  const pages = await db
    .select({ id: bioPages.id, name: bioPages.name, customEnding: bioPages.customEnding })
    .from(bioPages)
    .where(eq(bioPages.uid, owner.uid))
    .orderBy(asc(bioPages.created), asc(bioPages.id));
  if (pages.length === 0) return { pages: [] };
  const tiers = await db
    .select({ id: membershipTiers.id, name: membershipTiers.name, status: membershipTiers.status, bioPageId: membershipTiers.bioPageId })
    .from(membershipTiers)
    .where(inArray(membershipTiers.bioPageId, pages.map((page) => page.id)))
    .orderBy(asc(membershipTiers.position), asc(membershipTiers.created));
  return {
    pages: pages.map((page) => ({ ...page, tiers: tiers.filter((tier) => tier.bioPageId === page.id).map(({ id, name, status }) => ({ id, name, status })) })),
  };
}

type ResolvedAudience = PostAudience & { pageName: string; customEnding: string; tierName: string | null };

/** The audience a draft names, only among the creator's own pages and their tiers. */
async function resolveAudience(db: Db, owner: { uid: string }, audience: PostDraft["audience"]): Promise<ResolvedAudience | null> {
  if (audience.kind === "page") {
    const [page] = await db
      .select({ id: bioPages.id, name: bioPages.name, customEnding: bioPages.customEnding })
      .from(bioPages)
      .where(and(eq(bioPages.id, audience.id), eq(bioPages.uid, owner.uid)));
    return page ? { bioPageId: page.id, tierId: null, pageName: page.name, customEnding: page.customEnding, tierName: null } : null;
  }
  const [tier] = await db
    .select({ id: membershipTiers.id, name: membershipTiers.name, bioPageId: bioPages.id, pageName: bioPages.name, customEnding: bioPages.customEnding })
    .from(membershipTiers)
    .innerJoin(bioPages, eq(bioPages.id, membershipTiers.bioPageId))
    .where(and(eq(membershipTiers.id, audience.id), eq(bioPages.uid, owner.uid)));
  return tier ? { bioPageId: tier.bioPageId, tierId: tier.id, pageName: tier.pageName, customEnding: tier.customEnding, tierName: tier.name } : null;
}

async function countRecipients(db: Db, audience: PostAudience, now: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(memberships).where(recipientsOf(audience, now));
  return Number(row?.n ?? 0);
}

// --- Preview

export type PostPreview = {
  /** Made for this draft: the Send form carries it, so sending twice is one post. */
  postId: string;
  audience: string;
  subject: string;
  body: string;
  paragraphs: string[];
  pageName: string;
  audienceLabel: string;
  recipientCount: number;
};

type PostFormRefusal = FieldRefusal<PostFieldErrors>;

/** What the mail and the members' page will show, and how many members would get it now. Writes nothing. */
export async function previewPost(db: Db, owner: { uid: string }, input: PostFormInput, now = new Date()): Promise<Result<{ preview: PostPreview }, PostFormRefusal>> {
  const parsed = parsePostForm(input);
  if (parsed.kind === "ERROR") return parsed;
  const audience = await resolveAudience(db, owner, parsed.draft.audience);
  if (!audience) return fieldRefusal<PostFieldErrors>({ audience: POST_MESSAGES.audience });
  const recipientCount = await countRecipients(db, audience, now);
  const { subject, body } = parsed.draft;
  return success({
    preview: {
      postId: input.postId && POST_ID_FORMAT.test(input.postId) ? input.postId : draftPostId(),
      audience: input.audience,
      subject,
      body,
      paragraphs: postParagraphs(body),
      pageName: audience.pageName,
      audienceLabel: audienceLabel(audience.tierName),
      recipientCount,
    },
  });
}

// --- Send

export type TooManyPosts = Refusal<"resource-exhausted", "TOO_MANY_POSTS", { retryAfterSeconds: number; nextAt: string }>;
export type SendPostRefusal = PostFormRefusal | TooManyPosts | Refusal<"invalid-argument", "INVALID_POST_ID"> | DomainError<"aborted">;

const whenText = (at: Date) =>
  `${at.toLocaleString("en-US", { month: "long", day: "numeric", hour: "numeric", minute: "2-digit", hour12: true, timeZone: "UTC" })} UTC`;

function waitText(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hour${hours === 1 ? "" : "s"}`;
}

/** "You can send 3 posts a day…": when the oldest of the day's posts leaves the rolling day. */
export function tooManyPosts(oldestInDay: Date, now: Date): TooManyPosts {
  const nextAt = new Date(oldestInDay.getTime() + DAY_MS);
  const retryAfterSeconds = Math.max(1, Math.ceil((nextAt.getTime() - now.getTime()) / 1000));
  return refusal(
    "resource-exhausted",
    "TOO_MANY_POSTS",
    `You can send ${MEMBERSHIP_LIMITS.postsPerDay} posts in 24 hours, and you have. You can send your next post on ${whenText(nextAt)} (in ${waitText(retryAfterSeconds)}).`,
    { retryAfterSeconds, nextAt: nextAt.toISOString() },
  );
}

export type SentPost = { postId: string; recipientCount: number; audienceLabel: string; pageName: string };

/**
 * Sends a previewed post: one `member_posts` row and, with it, the queued task that mails every
 * current, unmuted member in batches after the answer (post-mail.ts, handleMemberPostTasks), each
 * mail recorded in `member_post_deliveries` with it.
 * The post's id comes from the preview: sent again (a double click, a retry after a failure) it
 * is the same post, not counted again against the day's posts, and its delivery goes on from
 * where it stopped, mailing nobody twice. At most MEMBERSHIP_LIMITS.postsPerDay new posts per
 * creator in any 24 hours, across their pages.
 */
export async function sendPost(
  db: Db,
  deps: { tasks: TaskSink },
  owner: { uid: string },
  input: PostFormInput & { postId: string },
  now = new Date(),
): Promise<Result<SentPost, SendPostRefusal>> {
  if (!POST_ID_FORMAT.test(input.postId)) return refusal("invalid-argument", "INVALID_POST_ID", "This form is out of date. Preview your post again, then send it.");
  const parsed = parsePostForm(input);
  if (parsed.kind === "ERROR") return parsed;
  const audience = await resolveAudience(db, owner, parsed.draft.audience);
  if (!audience) return fieldRefusal<PostFieldErrors>({ audience: POST_MESSAGES.audience });

  const written = await db.transaction(async (tx): Promise<Result<{ recipientCount: number }, SendPostRefusal>> => {
    // One creator's sends one after another, so two at once cannot both take the day's last post.
    await tx.select({ id: user.id }).from(user).where(eq(user.id, owner.uid)).for("update");
    const [existing] = await tx.select({ authorUid: memberPosts.authorUid, bioPageId: memberPosts.bioPageId, recipientCount: memberPosts.recipientCount }).from(memberPosts).where(eq(memberPosts.id, input.postId));
    if (existing) {
      // A retry of a post already written goes on delivering it; an id of someone else's post is no form of ours.
      if (existing.authorUid !== owner.uid || existing.bioPageId !== audience.bioPageId) return domainError("aborted", "This form is out of date. Preview your post again, then send it.");
      await deps.tasks.enqueue(MEMBER_POST_TASK, { postId: input.postId }, tx);
      return success({ recipientCount: existing.recipientCount });
    }
    const recipientCount = await countRecipients(tx, audience, now);
    if (recipientCount === 0) return fieldRefusal<PostFieldErrors>({ audience: POST_MESSAGES.nobody });
    const dayStart = new Date(now.getTime() - DAY_MS);
    const recent = await tx
      .select({ sentAt: memberPosts.sentAt })
      .from(memberPosts)
      .where(and(eq(memberPosts.authorUid, owner.uid), gt(memberPosts.sentAt, dayStart)))
      .orderBy(desc(memberPosts.sentAt))
      .limit(MEMBERSHIP_LIMITS.postsPerDay);
    if (recent.length >= MEMBERSHIP_LIMITS.postsPerDay) return tooManyPosts(recent[recent.length - 1]!.sentAt, now);
    await tx.insert(memberPosts).values({
      id: input.postId,
      bioPageId: audience.bioPageId,
      tierId: audience.tierId,
      authorUid: owner.uid,
      subject: parsed.draft.subject,
      body: parsed.draft.body,
      sentAt: now,
      // Who gets it now; the mail task sets it to the mails it queued.
      recipientCount,
    });
    await deps.tasks.enqueue(MEMBER_POST_TASK, { postId: input.postId }, tx);
    return success({ recipientCount });
  });
  if (written.kind === "ERROR") return written;
  return success({ postId: input.postId, recipientCount: written.recipientCount, audienceLabel: audienceLabel(audience.tierName), pageName: audience.pageName });
}

// --- The creator's list

export type SentPostRow = { id: string; subject: string; pageName: string; audienceLabel: string; recipientCount: number; sentAt: Date };

/** The creator's sent posts, newest first, with how many members each was mailed to. */
export async function listSentPosts(db: Db, owner: { uid: string }, { limit = 100 }: { limit?: number } = {}): Promise<{ posts: SentPostRow[]; postsLeftToday: number }> {
  const rows = await db
    .select({
      id: memberPosts.id,
      subject: memberPosts.subject,
      pageName: bioPages.name,
      tierName: membershipTiers.name,
      recipientCount: memberPosts.recipientCount,
      sentAt: memberPosts.sentAt,
    })
    .from(memberPosts)
    .innerJoin(bioPages, eq(bioPages.id, memberPosts.bioPageId))
    .leftJoin(membershipTiers, eq(membershipTiers.id, memberPosts.tierId))
    .where(eq(bioPages.uid, owner.uid))
    .orderBy(desc(memberPosts.sentAt), desc(memberPosts.id))
    .limit(Math.min(Math.max(limit, 1), 500));
  const [today] = await db
    .select({ n: count() })
    .from(memberPosts)
    .where(and(eq(memberPosts.authorUid, owner.uid), gt(memberPosts.sentAt, new Date(Date.now() - DAY_MS))));
  return {
    posts: rows.map(({ tierName, ...row }) => ({ ...row, audienceLabel: audienceLabel(tierName) })),
    postsLeftToday: Math.max(0, MEMBERSHIP_LIMITS.postsPerDay - Number(today?.n ?? 0)),
  };
}

// --- The members-only pages

export const MEMBER_POST_MESSAGES = {
  invalidLink: "This member link is not valid. It may have been copied incompletely: open it again from your latest email about this membership.",
  replacedLink: "This member link was replaced by a newer one. Use the link in your latest email about this membership.",
  notStarted: "This membership has not started: its checkout was never paid. Posts are for current members.",
  noSuchPost: "There is no such post among your membership's posts.",
  otherTier: "This post was written for the members of another tier, so your membership does not open it.",
} as const;

type MemberOfLink = {
  membershipId: string;
  tierId: string;
  tierName: string;
  bioPageId: string;
  pageName: string;
  customEnding: string;
};

/** The membership has ended: what the page says, and where to join again (the creator's bio page). */
export type MembershipEnded = Refusal<"gone", "MEMBERSHIP_ENDED", { pageName: string; customEnding: string }>;
export type MemberLinkRefusal = Refusal<"not-found", "INVALID_LINK"> | Refusal<"permission-denied", "NOT_STARTED"> | MembershipEnded;

/** The membership a signed link names, if it is current now; otherwise why not. */
async function currentMemberOf(db: Db, key: string, token: string, now: Date): Promise<Result<{ member: MemberOfLink }, MemberLinkRefusal>> {
  const read = readMemberToken(key, token);
  if (!read) return refusal("not-found", "INVALID_LINK", MEMBER_POST_MESSAGES.invalidLink);
  const [row] = await db
    .select({
      membershipId: memberships.id,
      status: memberships.status,
      currentPeriodEnd: memberships.currentPeriodEnd,
      linkVersion: memberships.linkVersion,
      tierId: memberships.tierId,
      tierName: membershipTiers.name,
      bioPageId: bioPages.id,
      pageName: bioPages.name,
      customEnding: bioPages.customEnding,
    })
    .from(memberships)
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .where(eq(memberships.id, read.membershipId));
  if (!row) return refusal("not-found", "INVALID_LINK", MEMBER_POST_MESSAGES.invalidLink);
  if (row.linkVersion !== read.linkVersion) return refusal("not-found", "INVALID_LINK", MEMBER_POST_MESSAGES.replacedLink);
  if (row.status === "pending" || row.status === "expired") return refusal("permission-denied", "NOT_STARTED", MEMBER_POST_MESSAGES.notStarted);
  if (!isCurrentMembership(row, now)) {
    return refusal("gone", "MEMBERSHIP_ENDED", `Your membership of ${row.pageName} has ended, so its posts are closed to this link. Join again on ${row.pageName}'s page to read them.`, {
      pageName: row.pageName,
      customEnding: row.customEnding,
    });
  }
  const { status: _status, currentPeriodEnd: _end, linkVersion: _version, ...member } = row;
  return success({ member });
}

/** Posts a membership may read: its page's, to everyone or to its tier. */
const readableBy = (member: MemberOfLink) => and(eq(memberPosts.bioPageId, member.bioPageId), or(sql`${memberPosts.tierId} is null`, eq(memberPosts.tierId, member.tierId)));

export type MemberPostSummary = { id: string; subject: string; excerpt: string; sentAt: Date; audienceLabel: string };
export type MemberPostsPage = { pageName: string; tierName: string; posts: MemberPostSummary[] };

/** `/membership/<token>/posts`: the posts a current membership may read, newest first. */
export async function readMemberPosts(db: Db, key: string, token: string, now = new Date()): Promise<Result<MemberPostsPage, MemberLinkRefusal>> {
  const opened = await currentMemberOf(db, key, token, now);
  if (opened.kind === "ERROR") return opened;
  const { member } = opened;
  const rows = await db
    .select({ id: memberPosts.id, subject: memberPosts.subject, body: memberPosts.body, sentAt: memberPosts.sentAt, tierName: membershipTiers.name })
    .from(memberPosts)
    .leftJoin(membershipTiers, eq(membershipTiers.id, memberPosts.tierId))
    .where(readableBy(member))
    .orderBy(desc(memberPosts.sentAt), desc(memberPosts.id))
    .limit(200);
  return success({
    pageName: member.pageName,
    tierName: member.tierName,
    posts: rows.map((row) => ({
      id: row.id,
      subject: row.subject,
      excerpt: excerptOf(row.body),
      sentAt: row.sentAt,
      audienceLabel: audienceLabel(row.tierName),
    })),
  });
}

function excerptOf(body: string): string {
  const first = postParagraphs(body)[0] ?? "";
  const flat = first.replace(/\s+/g, " ");
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

export type MemberPostPage = { pageName: string; post: { id: string; subject: string; paragraphs: string[]; sentAt: Date; audienceLabel: string } };
export type MemberPostRefusal = MemberLinkRefusal | Refusal<"not-found", "NO_SUCH_POST"> | Refusal<"permission-denied", "OTHER_TIER">;

/** `/membership/<token>/posts/<postId>`: one post, if the membership is current and the post was written for it. */
export async function readMemberPost(db: Db, key: string, token: string, postId: string, now = new Date()): Promise<Result<MemberPostPage, MemberPostRefusal>> {
  const opened = await currentMemberOf(db, key, token, now);
  if (opened.kind === "ERROR") return opened;
  const { member } = opened;
  if (!POST_ID_FORMAT.test(postId)) return refusal("not-found", "NO_SUCH_POST", MEMBER_POST_MESSAGES.noSuchPost);
  const [row] = await db
    .select({ id: memberPosts.id, bioPageId: memberPosts.bioPageId, tierId: memberPosts.tierId, subject: memberPosts.subject, body: memberPosts.body, sentAt: memberPosts.sentAt, tierName: membershipTiers.name })
    .from(memberPosts)
    .leftJoin(membershipTiers, eq(membershipTiers.id, memberPosts.tierId))
    .where(eq(memberPosts.id, postId));
  // Another page's post is "no such post": a member of one page learns nothing of another's.
  if (!row || row.bioPageId !== member.bioPageId) return refusal("not-found", "NO_SUCH_POST", MEMBER_POST_MESSAGES.noSuchPost);
  if (row.tierId !== null && row.tierId !== member.tierId) return refusal("permission-denied", "OTHER_TIER", MEMBER_POST_MESSAGES.otherTier);
  return success({
    pageName: member.pageName,
    post: { id: row.id, subject: row.subject, paragraphs: postParagraphs(row.body), sentAt: row.sentAt, audienceLabel: audienceLabel(row.tierName) },
  });
}
