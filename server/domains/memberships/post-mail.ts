import { render } from "@react-email/render";
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, or, type SQL } from "drizzle-orm";
import { createElement } from "react";
import type { Logger } from "pino";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import { bioPages, memberPostDeliveries, memberPosts, memberships } from "#server/platform/db/schema";
import type { Mailer, MailMessage } from "#server/platform/email/mailer";
import type { TaskQueue } from "#server/platform/jobs/task-queue";
import type { EmailSite } from "#server/platform/email/messages";
import { MemberPostMail } from "#server/platform/email/templates/MemberPostMail";
import { refusal, success, type Refusal, type Result } from "#server/platform/errors";
import { postParagraphs } from "#isomorphic/member-post-text";
import { memberLinkKey, memberPath, readMemberToken, signMemberToken } from "./member-link";

/**
 * A post's mail: one per current member who has not turned posts' mail off, each with the
 * member's own signed link to the post on the members-only page and a one-click link (RFC 8058)
 * that turns posts' mail off for that membership. Receipts and the membership's other mail are
 * not posts and keep coming.
 */

/** What sending a post's mail needs (postMailDepsOf builds it from what every loader and action has). */
export type PostMailDeps = {
  mailer: Mailer;
  site: EmailSite & { publicOrigin: string };
  /** memberLinkKey(sessionSecret). */
  memberLinkKey: string;
  logger?: Pick<Logger, "warn">;
};

type MailSources = { mailer: Mailer; config: Pick<Config, "APP_NAME" | "SUPPORT_EMAIL" | "PUBLIC_ORIGIN">; sessionSecret: string; logger?: Pick<Logger, "warn"> };

export function postMailDepsOf(context: MailSources): PostMailDeps {
  return {
    mailer: context.mailer,
    site: { appName: context.config.APP_NAME, supportEmail: context.config.SUPPORT_EMAIL, publicOrigin: context.config.PUBLIC_ORIGIN },
    memberLinkKey: memberLinkKey(context.sessionSecret),
    logger: context.logger,
  };
}

/** The members-only list of posts, one post, and the mute link, all under the member's signed path. */
export const memberPostsPath = (token: string) => `${memberPath(token)}/posts`;
export const memberPostPath = (token: string, postId: string) => `${memberPath(token)}/posts/${postId}`;
export const memberMutePath = (token: string) => `${memberPath(token)}/mute`;
/** A mail client's one-click POST lands here from anywhere: server/main/app.ts lets it past the cross-site guard. */
export const MEMBER_MUTE_PATH = /^\/membership\/[^/]+\/mute\/?$/;

// --- Who gets a post

/** The SQL condition of a membership that is current at `now`: active, past due, or cancelled with its period still running. */
export function currentMembershipAt(now: Date): SQL {
  return or(inArray(memberships.status, ["active", "past_due"]), and(eq(memberships.status, "cancelled"), gt(memberships.currentPeriodEnd, now)))!;
}

/** The same rule for a row already read. */
export function isCurrentMembership(row: Pick<typeof memberships.$inferSelect, "status" | "currentPeriodEnd">, now: Date): boolean {
  if (row.status === "active" || row.status === "past_due") return true;
  return row.status === "cancelled" && row.currentPeriodEnd !== null && row.currentPeriodEnd.getTime() > now.getTime();
}

/** Who a post goes to: every current member of a page (`tierId` null) or one tier's. */
export type PostAudience = { bioPageId: string; tierId: string | null };

/** The members a post to `audience` mails at `now`: current, not muted, with an address. */
export function recipientsOf(audience: PostAudience, now: Date): SQL {
  return and(
    eq(memberships.bioPageId, audience.bioPageId),
    audience.tierId === null ? undefined : eq(memberships.tierId, audience.tierId),
    currentMembershipAt(now),
    eq(memberships.postsMuted, false),
    isNotNull(memberships.memberEmail),
  )!;
}

// --- The mail

type PostEmailInput = {
  to: string;
  site: EmailSite;
  pageName: string;
  postId: string;
  subject: string;
  body: string;
  /** Absolute. */
  postUrl: string;
  muteUrl: string;
};

/** One member's copy of a post: subject as written, the whole text, their own links, one-click mute headers. */
export async function memberPostEmail({ to, site, pageName, postId, subject, body, postUrl, muteUrl }: PostEmailInput): Promise<MailMessage> {
  const email = createElement(MemberPostMail, { appName: site.appName, supportEmail: site.supportEmail, pageName, subject, paragraphs: postParagraphs(body), postUrl, muteUrl });
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return {
    to,
    subject: `${pageName}: ${subject}`,
    html,
    text,
    meta: { kind: "member-post", url: postUrl, postId },
    headers: { "List-Unsubscribe": `<${muteUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/** Mails queued per transaction: a large audience is many short transactions, never one giant one. */
export const POST_MAIL_BATCH = 200;

/**
 * Queues a post's mail to every recipient not mailed yet, `batchSize` at a time: each batch's
 * `member_post_deliveries` rows and its mails are written in one transaction, and a membership
 * that already has a delivery row for this post is skipped, so running this again (a retry after a
 * crash, a second click) mails nobody twice. Sets the post's recipient count to its deliveries.
 */
export async function deliverPost(db: Db, deps: PostMailDeps, postId: string, options: { now?: Date; batchSize?: number } = {}): Promise<{ mailed: number; recipientCount: number }> {
  const now = options.now ?? new Date();
  const batchSize = Math.max(1, options.batchSize ?? POST_MAIL_BATCH);
  const [post] = await db
    .select({ id: memberPosts.id, bioPageId: memberPosts.bioPageId, tierId: memberPosts.tierId, subject: memberPosts.subject, body: memberPosts.body, pageName: bioPages.name })
    .from(memberPosts)
    .innerJoin(bioPages, eq(bioPages.id, memberPosts.bioPageId))
    .where(eq(memberPosts.id, postId));
  if (!post) return { mailed: 0, recipientCount: 0 };
  const origin = deps.site.publicOrigin;
  let mailed = 0;
  let after = "";
  for (;;) {
    const batch = await db
      .select({ id: memberships.id, email: memberships.memberEmail, linkVersion: memberships.linkVersion })
      .from(memberships)
      .leftJoin(memberPostDeliveries, and(eq(memberPostDeliveries.postId, post.id), eq(memberPostDeliveries.membershipId, memberships.id)))
      .where(and(recipientsOf({ bioPageId: post.bioPageId, tierId: post.tierId }, now), isNull(memberPostDeliveries.membershipId), gt(memberships.id, after)))
      .orderBy(asc(memberships.id))
      .limit(batchSize);
    if (batch.length === 0) break;
    after = batch[batch.length - 1]!.id;
    // Rendered before the transaction: it holds its locks only for the writes.
    const mails = new Map<string, MailMessage>();
    for (const member of batch) {
      const token = signMemberToken(deps.memberLinkKey, member.id, member.linkVersion);
      mails.set(
        member.id,
        await memberPostEmail({
          to: member.email!,
          site: deps.site,
          pageName: post.pageName,
          postId: post.id,
          subject: post.subject,
          body: post.body,
          postUrl: `${origin}${memberPostPath(token, post.id)}`,
          muteUrl: `${origin}${memberMutePath(token)}`,
        }),
      );
    }
    mailed += await db.transaction(async (tx) => {
      // Only the rows this transaction wrote get a mail: another run that got there first mailed those.
      const claimed = await tx
        .insert(memberPostDeliveries)
        .values(batch.map((member) => ({ postId: post.id, membershipId: member.id, created: now })))
        .onConflictDoNothing()
        .returning({ membershipId: memberPostDeliveries.membershipId });
      for (const { membershipId } of claimed) await deps.mailer.sendWithin(tx, mails.get(membershipId)!);
      return claimed.length;
    });
    // The SMTP worker would find them on its next round; this sends them now, outside the request's wait.
    deps.mailer.deliverDue().catch((error: unknown) => deps.logger?.warn({ err: error }, "post mail not sent yet; the worker retries"));
    if (batch.length < batchSize) break;
  }
  const [delivered] = await db.select({ n: count() }).from(memberPostDeliveries).where(eq(memberPostDeliveries.postId, post.id));
  const recipientCount = Number(delivered?.n ?? 0);
  await db.update(memberPosts).set({ recipientCount }).where(eq(memberPosts.id, post.id));
  return { mailed, recipientCount };
}

/** The queued task that mails a post once the request that wrote it has answered. */
export const MEMBER_POST_TASK = "memberships.post-mail";

/**
 * Runs a post's mail after the send's answer (sendPost queues it with the post): a large audience
 * never holds the creator's request, and a task that fails or dies halfway is run again by the
 * queue, where deliverPost's deliveries make sure nobody is mailed twice.
 */
export function handleMemberPostTasks(tasks: Pick<TaskQueue, "handle">, db: Db, deps: PostMailDeps): void {
  tasks.handle(MEMBER_POST_TASK, async ({ payload }) => {
    const postId = payload.postId;
    if (typeof postId !== "string") throw new Error("a post's mail task carries a post id");
    await deliverPost(db, deps, postId);
  });
}

// --- One-click mute

export const MUTE_MESSAGES = {
  invalid: "This link is not valid. It may have been copied incompletely: open it again from your latest email about this membership.",
} as const;

export type MuteTarget = { pageName: string; muted: boolean };
export type MuteRefusal = Refusal<"not-found", "INVALID_LINK">;

async function membershipOfLink(db: Db, key: string, token: string) {
  const read = readMemberToken(key, token);
  if (!read) return null;
  const [row] = await db
    .select({ id: memberships.id, linkVersion: memberships.linkVersion, postsMuted: memberships.postsMuted, pageName: bioPages.name })
    .from(memberships)
    .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .where(eq(memberships.id, read.membershipId));
  return row && row.linkVersion === read.linkVersion ? row : null;
}

/** What the mute link would turn off, and whether it is off already; writes nothing (link scanners open every URL). */
export async function readMuteLink(db: Db, key: string, token: string): Promise<Result<MuteTarget, MuteRefusal>> {
  const row = await membershipOfLink(db, key, token);
  if (!row) return refusal("not-found", "INVALID_LINK", MUTE_MESSAGES.invalid);
  return success({ pageName: row.pageName, muted: row.postsMuted });
}

/**
 * The confirm button or a mail client's one-click POST: posts' mail off for this membership,
 * whatever its state (an ended membership gets no posts anyway). The signed link is the
 * permission; following it again changes nothing. Receipts and notices are not posts.
 */
export async function muteMemberPosts(db: Db, key: string, token: string): Promise<Result<MuteTarget, MuteRefusal>> {
  const row = await membershipOfLink(db, key, token);
  if (!row) return refusal("not-found", "INVALID_LINK", MUTE_MESSAGES.invalid);
  if (!row.postsMuted) await db.update(memberships).set({ postsMuted: true, updatedAt: new Date() }).where(eq(memberships.id, row.id));
  return success({ pageName: row.pageName, muted: true });
}
