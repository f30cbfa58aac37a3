import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bioPages, emailOutbox, memberPostDeliveries, memberPosts, memberships, membershipTiers, user } from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import { createTaskQueue, type TaskQueue } from "#server/platform/jobs/task-queue";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { memberLinkKey, signMemberToken } from "./member-link";
import { deliverPost, handleMemberPostTasks, muteMemberPosts, readMuteLink, type PostMailDeps } from "./post-mail";
import { draftPostId, listSentPosts, parsePostForm, previewPost, readMemberPost, readMemberPosts, sendPost } from "./posts";
import pino from "pino";

const SECRET = "a-session-secret-long-enough-for-member-links";
const KEY = memberLinkKey(SECRET);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("the compose form", () => {
  it("says what is wrong with every field at once", () => {
    const parsed = parsePostForm({ audience: "nobody", subject: "x".repeat(121), body: "  \n\n " });
    expect(parsed.kind === "ERROR" && parsed.fieldErrors).toEqual({
      audience: "Choose who gets this post",
      subject: "Keep the subject to 120 characters",
      body: "Write your post",
    });
    const long = parsePostForm({ audience: "page:abc", subject: "Hi", body: "y".repeat(10_001) });
    expect(long.kind === "ERROR" && long.fieldErrors).toEqual({ body: "Keep the post to 10,000 characters" });
  });

  it("keeps paragraphs and drops Windows line ends and runs of blank lines", () => {
    const parsed = parsePostForm({ audience: "tier:t_1", subject: "  Studio news ", body: "First line\r\nsame paragraph\r\n\r\n\r\n\r\nSecond  \n" });
    expect(parsed).toEqual({ kind: "SUCCESS", draft: { audience: { kind: "tier", id: "t_1" }, subject: "Studio news", body: "First line\nsame paragraph\n\nSecond" } });
  });
});

describe.each(ENGINES)("posts to members on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const deps = (): PostMailDeps => ({
    mailer: createMailer({ db: db(), from: "Sponsorgrid <no-reply@test.example>", logger: pino({ level: "silent" }) }),
    site: { appName: "Sponsorgrid", supportEmail: "support@test.example", publicOrigin: "http://app.test" },
    memberLinkKey: KEY,
  });
  // The queue the app runs sends' mail on, not started: each test runs its due tasks itself (drain).
  let queue: TaskQueue;
  beforeAll(() => {
    queue = createTaskQueue({ db: db(), logger: pino({ level: "silent" }) });
    handleMemberPostTasks(queue, db(), deps());
  });
  const sink = () => ({ tasks: queue });
  const drain = () => queue.deliverDue();
  let n = 0;
  const next = () => `${engine}_${++n}_${Date.now().toString(36)}`;

  /** A creator with a page, two tiers and members in every state. */
  async function creatorWithMembers() {
    const uid = `creator_${next()}`;
    await db().insert(user).values({ id: uid, name: uid, email: `${uid}@c.example`, emailVerified: true });
    const pageId = `page_${next()}`;
    await db().insert(bioPages).values({ id: pageId, uid, customEnding: `p_${pageId.toLowerCase()}`, name: "Maya's Studio" });
    const gold = `tier_${next()}`;
    const silver = `tier_${next()}`;
    await db().insert(membershipTiers).values([
      { id: gold, bioPageId: pageId, name: "Gold", monthlyPrice: 1000, position: 0 },
      { id: silver, bioPageId: pageId, name: "Silver", monthlyPrice: 500, position: 1 },
    ]);
    const now = Date.now();
    const member = async (name: string, tierId: string, fields: Partial<typeof memberships.$inferInsert> = {}) => {
      const id = `mem_${name}_${next()}`;
      await db().insert(memberships).values({
        id,
        tierId,
        bioPageId: pageId,
        creatorUid: uid,
        memberEmail: `${id}@m.example`,
        memberName: name,
        provider: "sandbox",
        destinationAccountId: "acct_test",
        amount: 1000,
        status: "active",
        currentPeriodEnd: new Date(now + 20 * DAY),
        startedAt: new Date(now - 10 * DAY),
        ...fields,
      });
      return { id, email: `${id}@m.example`, token: signMemberToken(KEY, id, fields.linkVersion ?? 1) };
    };
    const members = {
      goldActive: await member("goldActive", gold),
      goldPastDue: await member("goldPastDue", gold, { status: "past_due" }),
      goldCancelling: await member("goldCancelling", gold, { status: "cancelled", cancelAtPeriodEnd: true, currentPeriodEnd: new Date(now + 3 * DAY) }),
      goldCancelledOver: await member("goldCancelledOver", gold, { status: "cancelled", currentPeriodEnd: new Date(now - HOUR) }),
      goldEnded: await member("goldEnded", gold, { status: "ended", endedAt: new Date(now - DAY), currentPeriodEnd: new Date(now - DAY) }),
      goldMuted: await member("goldMuted", gold, { postsMuted: true }),
      goldPending: await member("goldPending", gold, { status: "pending", currentPeriodEnd: null }),
      silverActive: await member("silverActive", silver),
    };
    return { uid, pageId, gold, silver, members };
  }

  const mailTo = (emails: string[]) => db().select().from(emailOutbox).where(inArray(emailOutbox.to, emails));
  const allEmails = (members: Record<string, { email: string }>) => Object.values(members).map((m) => m.email);

  it("previews the mail and the page with the count of current, unmuted members of the tier chosen", async () => {
    const { uid, pageId, gold, silver } = await creatorWithMembers();
    const goldPreview = await previewPost(db(), { uid }, { audience: `tier:${gold}`, subject: "Studio news", body: "Hello Gold.\n\nMore soon." });
    expect(goldPreview.kind).toBe("SUCCESS");
    if (goldPreview.kind !== "SUCCESS") return;
    // Active, past due and cancelled-until-period-end; not the muted, ended, period-over or unpaid ones.
    expect(goldPreview.preview).toMatchObject({ recipientCount: 3, audienceLabel: "Gold members", pageName: "Maya's Studio", paragraphs: ["Hello Gold.", "More soon."] });
    expect(goldPreview.preview.postId).toMatch(/^post_[A-Za-z0-9]{20}$/);
    const silverPreview = await previewPost(db(), { uid }, { audience: `tier:${silver}`, subject: "S", body: "B" });
    expect(silverPreview.kind === "SUCCESS" && silverPreview.preview.recipientCount).toBe(1);
    const everyone = await previewPost(db(), { uid }, { audience: `page:${pageId}`, subject: "S", body: "B" });
    expect(everyone.kind === "SUCCESS" && everyone.preview).toMatchObject({ recipientCount: 4, audienceLabel: "All members" });
    // Nothing is written by a preview.
    expect(await db().select().from(memberPosts).where(eq(memberPosts.bioPageId, pageId))).toEqual([]);
  });

  it("refuses another creator's page or tier as the audience, beside the field", async () => {
    const mine = await creatorWithMembers();
    const theirs = await creatorWithMembers();
    for (const audience of [`tier:${theirs.gold}`, `page:${theirs.pageId}`]) {
      const preview = await previewPost(db(), { uid: mine.uid }, { audience, subject: "S", body: "B" });
      expect(preview.kind === "ERROR" && preview.fieldErrors).toEqual({ audience: "Choose who gets this post" });
      const sent = await sendPost(db(), sink(), { uid: mine.uid }, { audience, subject: "S", body: "B", postId: draftPostId() });
      expect(sent.kind === "ERROR" && "fieldErrors" in sent && sent.fieldErrors).toEqual({ audience: "Choose who gets this post" });
    }
  });

  it("sends to one tier: one post, one mail per current unmuted member with their own links and one-click mute headers", async () => {
    const { uid, gold, members } = await creatorWithMembers();
    const postId = draftPostId();
    const sent = await sendPost(db(), sink(), { uid }, { audience: `tier:${gold}`, subject: "Studio news", body: "Hello Gold.\n\nMore soon.", postId });
    expect(sent).toEqual({ kind: "SUCCESS", postId, recipientCount: 3, audienceLabel: "Gold members", pageName: "Maya's Studio" });
    // Nothing is mailed in the send itself: the queued task does it after the answer.
    expect(await mailTo(allEmails(members))).toEqual([]);
    expect(await drain()).toBe(1);
    const mail = await mailTo(allEmails(members));
    expect(mail.map((m) => m.to).sort()).toEqual([members.goldActive.email, members.goldCancelling.email, members.goldPastDue.email].sort());
    const toActive = mail.find((m) => m.to === members.goldActive.email)!;
    expect(toActive.subject).toBe("Maya's Studio: Studio news");
    const token = members.goldActive.token;
    expect(toActive.headers).toEqual({ "List-Unsubscribe": `<http://app.test/membership/${token}/mute>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(toActive.meta).toEqual({ kind: "member-post", url: `http://app.test/membership/${token}/posts/${postId}`, postId });
    expect(toActive.text).toContain("Hello Gold.");
    expect(toActive.text).toContain(`http://app.test/membership/${token}/posts/${postId}`);
    expect(toActive.html).toContain(`http://app.test/membership/${token}/mute`);
    const [post] = await db().select().from(memberPosts).where(eq(memberPosts.id, postId));
    expect(post).toMatchObject({ tierId: gold, authorUid: uid, subject: "Studio news", body: "Hello Gold.\n\nMore soon.", recipientCount: 3 });
    expect(await db().select().from(memberPostDeliveries).where(eq(memberPostDeliveries.postId, postId))).toHaveLength(3);
    const listed = await listSentPosts(db(), { uid });
    expect(listed.posts).toEqual([expect.objectContaining({ id: postId, subject: "Studio news", pageName: "Maya's Studio", audienceLabel: "Gold members", recipientCount: 3 })]);
    expect(listed.postsLeftToday).toBe(2);
  });

  it("a retry mails nobody twice: the same post id again, a crash halfway, or two runs at once", async () => {
    const { uid, pageId, members } = await creatorWithMembers();
    const postId = draftPostId();
    const form = { audience: `page:${pageId}`, subject: "Twice?", body: "Once.", postId };
    expect((await sendPost(db(), sink(), { uid }, form)).kind).toBe("SUCCESS");
    await drain();
    const again = await sendPost(db(), sink(), { uid }, form);
    expect(again.kind === "SUCCESS" && again.recipientCount).toBe(4);
    // Its task runs again and finds everyone mailed.
    expect(await drain()).toBe(1);
    expect(await mailTo(allEmails(members))).toHaveLength(4);
    expect(await db().select().from(memberPosts).where(eq(memberPosts.bioPageId, pageId))).toHaveLength(1);
    // Not counted twice against the day's posts.
    expect((await listSentPosts(db(), { uid })).postsLeftToday).toBe(2);

    // A crash after one member's batch: their delivery (and mail) was committed, the others' not.
    const second = await creatorWithMembers();
    const crashed = draftPostId();
    await db().insert(memberPosts).values({ id: crashed, bioPageId: second.pageId, tierId: null, authorUid: second.uid, subject: "Crash", body: "Body" });
    await db().insert(memberPostDeliveries).values({ postId: crashed, membershipId: second.members.goldActive.id });
    const [first, parallel] = await Promise.all([deliverPost(db(), deps(), crashed, { batchSize: 1 }), deliverPost(db(), deps(), crashed, { batchSize: 2 })]);
    expect(first.mailed + parallel.mailed).toBe(3);
    const mail = await mailTo(allEmails(second.members));
    expect(mail.map((m) => m.to).sort()).toEqual([second.members.goldPastDue.email, second.members.goldCancelling.email, second.members.silverActive.email].sort());
    expect((await db().select().from(memberPosts).where(eq(memberPosts.id, crashed)))[0]!.recipientCount).toBe(4);
  });

  it("queues a large audience in batches", async () => {
    const { uid, pageId, members } = await creatorWithMembers();
    const postId = draftPostId();
    await db().insert(memberPosts).values({ id: postId, bioPageId: pageId, tierId: null, authorUid: uid, subject: "Batches", body: "Body" });
    const delivered = await deliverPost(db(), deps(), postId, { batchSize: 1 });
    expect(delivered).toEqual({ mailed: 4, recipientCount: 4 });
    expect(await mailTo(allEmails(members))).toHaveLength(4);
  });

  it("holds a creator to three new posts in any 24 hours, saying when the next may go", async () => {
    const { uid, pageId } = await creatorWithMembers();
    const start = new Date();
    const at = (hours: number) => new Date(start.getTime() + hours * HOUR);
    const send = (when: Date) => sendPost(db(), sink(), { uid }, { audience: `page:${pageId}`, subject: "News", body: "Body", postId: draftPostId() }, when);
    expect((await send(at(0))).kind).toBe("SUCCESS");
    expect((await send(at(5))).kind).toBe("SUCCESS");
    expect((await send(at(6))).kind).toBe("SUCCESS");
    const refused = await send(at(10));
    expect(refused).toMatchObject({ kind: "ERROR", code: "resource-exhausted", reason: "TOO_MANY_POSTS", retryAfterSeconds: 14 * 3600, nextAt: at(24).toISOString() });
    expect(refused.kind === "ERROR" && refused.message).toMatch(/^You can send 3 posts in 24 hours, and you have\. You can send your next post on .+ UTC \(in 14 hours\)\.$/);
    expect(await db().select().from(memberPosts).where(eq(memberPosts.bioPageId, pageId))).toHaveLength(3);
    // A rolling day: once the first post is a day old, one more may go.
    expect((await send(at(24.01))).kind).toBe("SUCCESS");
    expect((await send(at(24.02))).kind).toBe("ERROR");
  });

  it("refuses a post nobody would get, without counting it", async () => {
    const { uid, pageId } = await creatorWithMembers();
    const tier = `tier_${next()}`;
    await db().insert(membershipTiers).values({ id: tier, bioPageId: pageId, name: "Empty", monthlyPrice: 300 });
    const sent = await sendPost(db(), sink(), { uid }, { audience: `tier:${tier}`, subject: "S", body: "B", postId: draftPostId() });
    expect(sent.kind === "ERROR" && "fieldErrors" in sent && sent.fieldErrors).toEqual({ audience: "Nobody would get this post: there is no current member here who gets posts by email." });
    expect((await listSentPosts(db(), { uid })).postsLeftToday).toBe(3);
  });

  it("opens the members-only pages only to a current membership, and a post only to its tier's members", async () => {
    const { uid, pageId, gold, members } = await creatorWithMembers();
    const goldPost = draftPostId();
    const allPost = draftPostId();
    await sendPost(db(), sink(), { uid }, { audience: `tier:${gold}`, subject: "For Gold", body: "Gold only.", postId: goldPost });
    await sendPost(db(), sink(), { uid }, { audience: `page:${pageId}`, subject: "For all", body: "Everyone.", postId: allPost });
    const other = await creatorWithMembers();
    const otherPost = draftPostId();
    await sendPost(db(), sink(), { uid: other.uid }, { audience: `page:${other.pageId}`, subject: "Elsewhere", body: "Other page.", postId: otherPost });

    const goldList = await readMemberPosts(db(), KEY, members.goldActive.token);
    expect(goldList.kind === "SUCCESS" && goldList.posts.map((p) => p.subject)).toEqual(["For all", "For Gold"]);
    const silverList = await readMemberPosts(db(), KEY, members.silverActive.token);
    expect(silverList.kind === "SUCCESS" && silverList.posts.map((p) => p.subject)).toEqual(["For all"]);

    expect(await readMemberPost(db(), KEY, members.goldActive.token, goldPost)).toMatchObject({ kind: "SUCCESS", post: { subject: "For Gold", paragraphs: ["Gold only."] } });
    // Muted members and cancelled ones whose period runs still read on the page.
    expect((await readMemberPost(db(), KEY, members.goldMuted.token, goldPost)).kind).toBe("SUCCESS");
    expect((await readMemberPost(db(), KEY, members.goldCancelling.token, goldPost)).kind).toBe("SUCCESS");
    expect(await readMemberPost(db(), KEY, members.silverActive.token, goldPost)).toMatchObject({ kind: "ERROR", code: "permission-denied", reason: "OTHER_TIER" });
    expect((await readMemberPost(db(), KEY, members.silverActive.token, allPost)).kind).toBe("SUCCESS");
    expect(await readMemberPost(db(), KEY, members.goldActive.token, otherPost)).toMatchObject({ kind: "ERROR", code: "not-found", reason: "NO_SUCH_POST" });
    expect(await readMemberPost(db(), KEY, members.goldActive.token, "post_nope")).toMatchObject({ kind: "ERROR", code: "not-found" });

    for (const ended of [members.goldEnded, members.goldCancelledOver]) {
      for (const read of [await readMemberPosts(db(), KEY, ended.token), await readMemberPost(db(), KEY, ended.token, allPost)]) {
        expect(read).toMatchObject({ kind: "ERROR", code: "gone", reason: "MEMBERSHIP_ENDED", pageName: "Maya's Studio" });
        expect(read.kind === "ERROR" && "customEnding" in read && read.customEnding).toMatch(/^p_page_/);
        expect(read.kind === "ERROR" && read.message).toBe("Your membership of Maya's Studio has ended, so its posts are closed to this link. Join again on Maya's Studio's page to read them.");
      }
    }
    expect(await readMemberPosts(db(), KEY, members.goldPending.token)).toMatchObject({ kind: "ERROR", code: "permission-denied", reason: "NOT_STARTED" });
    expect(await readMemberPosts(db(), KEY, `${members.goldActive.token.slice(0, -2)}xx`)).toMatchObject({ kind: "ERROR", code: "not-found", reason: "INVALID_LINK" });
    expect(await readMemberPosts(db(), KEY, "not-a-token")).toMatchObject({ kind: "ERROR", code: "not-found", reason: "INVALID_LINK" });
    expect(await readMemberPosts(db(), memberLinkKey("another-secret-entirely-of-length"), members.goldActive.token)).toMatchObject({ kind: "ERROR", code: "not-found" });
    // New links asked for: the old one stops.
    await db().update(memberships).set({ linkVersion: 2 }).where(eq(memberships.id, members.goldActive.id));
    expect(await readMemberPosts(db(), KEY, members.goldActive.token)).toMatchObject({ kind: "ERROR", code: "not-found", message: expect.stringContaining("replaced by a newer one") });
    expect((await readMemberPosts(db(), KEY, signMemberToken(KEY, members.goldActive.id, 2))).kind).toBe("SUCCESS");
  });

  it("the mute link turns posts' mail off for that membership only, and following it again changes nothing", async () => {
    const { uid, gold, members } = await creatorWithMembers();
    expect(await readMuteLink(db(), KEY, members.goldActive.token)).toEqual({ kind: "SUCCESS", pageName: "Maya's Studio", muted: false });
    expect(await muteMemberPosts(db(), KEY, members.goldActive.token)).toEqual({ kind: "SUCCESS", pageName: "Maya's Studio", muted: true });
    expect(await muteMemberPosts(db(), KEY, members.goldActive.token)).toEqual({ kind: "SUCCESS", pageName: "Maya's Studio", muted: true });
    expect(await muteMemberPosts(db(), KEY, "m1.bogus.1.sig")).toMatchObject({ kind: "ERROR", code: "not-found", reason: "INVALID_LINK" });
    const [row] = await db().select({ postsMuted: memberships.postsMuted, status: memberships.status }).from(memberships).where(eq(memberships.id, members.goldActive.id));
    expect(row).toEqual({ postsMuted: true, status: "active" });
    const sent = await sendPost(db(), sink(), { uid }, { audience: `tier:${gold}`, subject: "After mute", body: "B", postId: draftPostId() });
    expect(sent.kind === "SUCCESS" && sent.recipientCount).toBe(2);
    await drain();
    expect(await mailTo([members.goldActive.email])).toEqual([]);
    expect(await mailTo([members.goldPastDue.email, members.goldCancelling.email])).toHaveLength(2);
  });
});
