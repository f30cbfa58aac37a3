import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPages, opportunityPosts } from "#server/platform/db/schema";
import { refusal, success } from "#server/platform/errors";
import { sendNotification, type NotificationDeps } from "#server/domains/notifications/send";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";
import { MODERATION_REASON_MAX, type ReportTargetType } from "#isomorphic/report-reasons";
import { itemByAddress, itemById, parseItemAddress, type ContentItem } from "./targets";

export type ModerationDeps = NotificationDeps;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The reason staff must give, trimmed; a refusal when it is missing or too long. */
export function checkReason(reason: string) {
  const text = reason.trim();
  if (!text) return refusal("invalid-argument", "REASON_REQUIRED", "Give a reason: the owner reads it, and the audit log keeps it.");
  if (text.length > MODERATION_REASON_MAX) return refusal("invalid-argument", "REASON_TOO_LONG", `Keep the reason to ${MODERATION_REASON_MAX} characters or fewer.`);
  return success({ text });
}

const actorLabel = (actor: Actor) => (actor.kind === "staff" ? actor.email : actor.kind === "command-line" ? "command line" : `scheduled job ${actor.job}`);

/** "your bio page “Maya” (maya)" / "your opportunity “Summer tour”". */
export function itemLabel(item: Pick<ContentItem, "type" | "title" | "address">, whose: "your" | "the"): string {
  return item.type === "bio_page" ? `${whose} bio page “${item.title}” (${item.address})` : `${whose} opportunity “${item.title}”`;
}

const ownerDestination = (item: ContentItem) => (item.type === "bio_page" ? "/app/account/bizbio" : `/app/opportunities/${item.id}`);

async function setRemoved(tx: Tx, item: ContentItem, values: { removedAt: Date | null; removedReason: string | null; removedBy: string | null }) {
  if (item.type === "bio_page") await tx.update(bioPages).set(values).where(eq(bioPages.id, item.id));
  else await tx.update(opportunityPosts).set(values).where(eq(opportunityPosts.id, item.id));
}

/**
 * Takes one bio page or opportunity down (ADR 0050), in the caller's transaction: the row is
 * marked (every public reader leaves it out; the bio host answers "unavailable"), the audit row
 * is written and the owner is told in the app and by mail, with the reason and how to appeal.
 * The row's write moves the guest page generation (its table's trigger), so no cached page keeps it.
 */
export async function takeDown(tx: Tx, deps: ModerationDeps, actor: Actor, item: ContentItem, reason: string, now = new Date()) {
  await setRemoved(tx, item, { removedAt: now, removedReason: reason, removedBy: actorLabel(actor) });
  await recordAudit(tx, { actor, action: item.type === "bio_page" ? "bio_page.remove" : "opportunity.remove", subject: { type: item.type, id: item.id }, reason, before: { removed: false }, after: { removed: true } }, now);
  await sendNotification(
    tx,
    {
      uid: item.ownerUid,
      kind: "content-removed",
      title: `We took down ${itemLabel(item, "your")}`,
      message: `Our team took down ${itemLabel(item, "your")} because it breaks our Code of Conduct. Reason: ${reason} If you think we got it wrong, email ${deps.site.supportEmail} within 30 days with "Appeal" in the subject line.`,
      buttonText: "See it",
      buttonDestination: ownerDestination(item),
    },
    deps,
  );
}

type Target = { type: ReportTargetType; id: string };

/** Takes an item down from the back office's content page (not from a report). */
export async function removeContent(db: Db, deps: ModerationDeps, actor: Actor, target: Target, reason: string) {
  const checked = checkReason(reason);
  if (checked.kind === "ERROR") return checked;
  return db.transaction(async (tx) => {
    const item = await itemById(tx, target.type, target.id);
    if (!item) return refusal("not-found", "NO_SUCH_ITEM", "There is no such bio page or opportunity.");
    if (item.removedAt) return refusal("aborted", "ALREADY_REMOVED", "It is already taken down.");
    await takeDown(tx, deps, actor, item, checked.text);
    return success({ item });
  });
}

/** Puts a taken-down item back, with a reason; audited, and its owner told. */
export async function restoreContent(db: Db, deps: ModerationDeps, actor: Actor, target: Target, reason: string) {
  const checked = checkReason(reason);
  if (checked.kind === "ERROR") return checked;
  return db.transaction(async (tx) => {
    const item = await itemById(tx, target.type, target.id);
    if (!item) return refusal("not-found", "NO_SUCH_ITEM", "There is no such bio page or opportunity.");
    if (!item.removedAt) return refusal("aborted", "NOT_REMOVED", "It is not taken down.");
    await setRemoved(tx, item, { removedAt: null, removedReason: null, removedBy: null });
    await recordAudit(tx, { actor, action: item.type === "bio_page" ? "bio_page.restore" : "opportunity.restore", subject: { type: item.type, id: item.id }, reason: checked.text, before: { removed: true, reason: item.removedReason }, after: { removed: false } });
    await sendNotification(
      tx,
      {
        uid: item.ownerUid,
        kind: "content-restored",
        title: `We restored ${itemLabel(item, "your")}`,
        message: `Our team restored ${itemLabel(item, "your")}: it is public again. Reason: ${checked.text}`,
        buttonText: "See it",
        buttonDestination: ownerDestination(item),
      },
      deps,
    );
    return success({ item });
  });
}

export type RemovedItem = ContentItem & { removedAt: Date };

/** Everything taken down, newest first (bounded: the back office's list). */
export async function listRemoved(db: Db, limit = 200): Promise<RemovedItem[]> {
  const [pages, posts] = await Promise.all([
    db.select({ id: bioPages.id }).from(bioPages).where(isNotNull(bioPages.removedAt)).orderBy(desc(bioPages.removedAt)).limit(limit),
    db.select({ id: opportunityPosts.id }).from(opportunityPosts).where(and(isNotNull(opportunityPosts.removedAt))).orderBy(desc(opportunityPosts.removedAt)).limit(limit),
  ]);
  const items = await Promise.all([...pages.map((p) => itemById(db, "bio_page", p.id)), ...posts.map((p) => itemById(db, "opportunity", p.id))]);
  return items
    .filter((item): item is RemovedItem => item !== null && item.removedAt !== null)
    .sort((a, b) => b.removedAt.getTime() - a.removedAt.getTime())
    .slice(0, limit);
}

/** Takes down whatever a pasted address names (a bio page's address or ending, an opportunity's address or id). */
export async function removeByAddress(db: Db, deps: ModerationDeps, actor: Actor, input: { address: string; bioOrigin: string }, reason: string) {
  const parsed = parseItemAddress(input.address, input.bioOrigin);
  if (!parsed) return refusal("invalid-argument", "NOT_AN_ADDRESS", "Paste a bio page's address (or its ending) or an opportunity's address (or its id).");
  const item = await itemByAddress(db, parsed.type, parsed.address);
  if (!item) return refusal("not-found", "NO_SUCH_ITEM", "There is no bio page or opportunity at that address.");
  return removeContent(db, deps, actor, { type: item.type, id: item.id }, reason);
}
