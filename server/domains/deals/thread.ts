import { and, asc, eq, gt, or, sql } from "drizzle-orm";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { sendNotification } from "#server/domains/notifications/send";
import type { Db } from "#server/platform/db/client";
import { dealMessages, deals, type DealSide } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import { MAX_MESSAGE_TEXT } from "#isomorphic/deal-limits";
import { storeDealFiles, type CheckedFile } from "./files";
import { queueDealEvent } from "./deal-events";
import { shownNameOf } from "./notices";

import type { DealMessage, DealThreadPlace } from "./news";

const NO_SUCH_DEAL = refusal("not-found", "NOT_FOUND", "There is no such deal.");

function sideIn(deal: { creatorUid: string | null; sponsorUid: string | null }, uid: string): DealSide | null {
  return deal.creatorUid === uid ? "creator" : deal.sponsorUid === uid ? "sponsor" : null;
}

/**
 * A message from one side into the deal's thread, under the deal's row lock so the numbering has
 * no gaps or twins. The other side gets one nudge per unread run: a notification (mailed by their
 * preference) for the first message they have not read, none for the ones after it until they read;
 * both sides' webhook endpoints get `deal.message` for every one (deal-events.ts).
 */
export async function postDealMessage(
  db: Db,
  deps: NotificationDeps,
  input: { uid: string; dealId: string; body: string; files?: CheckedFile[] },
  now = new Date(),
): Promise<Success<{ seq: number }> | Refusal<"not-found", "NOT_FOUND"> | FieldRefusal<{ body?: string }>> {
  const body = input.body.trim();
  const files = input.files ?? [];
  if (!body && files.length === 0) return fieldRefusal({ body: "Write a message or attach a file first" });
  if ([...body].length > MAX_MESSAGE_TEXT) return fieldRefusal({ body: `Must be at most ${MAX_MESSAGE_TEXT} characters` });
  return db.transaction(async (tx) => {
    const [deal] = await tx.select().from(deals).where(eq(deals.id, input.dealId)).for("update");
    const side = deal ? sideIn(deal, input.uid) : null;
    if (!deal || side === null) return NO_SUCH_DEAL;
    const seq = deal.messageCount + 1;
    await tx.insert(dealMessages).values({ dealId: deal.id, seq, authorUid: input.uid, authorSide: side, body, at: now });
    await storeDealFiles(tx, { dealId: deal.id, uploaderUid: input.uid, place: "message", messageSeq: seq }, files, now);
    // The author has read their own thread up to here.
    await tx
      .update(deals)
      .set({ messageCount: seq, updatedAt: now, ...(side === "creator" ? { creatorReadCount: seq } : { sponsorReadCount: seq }) })
      .where(eq(deals.id, deal.id));
    // Every message is an event for both sides' endpoints, unlike the nudge below.
    await queueDealEvent(tx, deps, { dealId: deal.id, news: "message", message: { seq, side, body, at: now.toISOString() } });
    const recipient = side === "creator" ? deal.sponsorUid : deal.creatorUid;
    const theirReadCount = side === "creator" ? deal.sponsorReadCount : deal.creatorReadCount;
    if (recipient !== null && theirReadCount === deal.messageCount) {
      const who = await shownNameOf(tx, input.uid);
      await sendNotification(
        tx,
        {
          uid: recipient,
          kind: "deal-activity",
          title: "New message",
          message: `${who} wrote about “${deal.title}”: ${body ? (body.length > 140 ? `${body.slice(0, 139)}…` : body) : `${files.length === 1 ? "a file" : `${files.length} files`}.`}`,
          buttonText: "Open the deal",
          buttonDestination: `/app/deals/${deal.id}`,
        },
        deps,
      );
    }
    return success({ seq });
  });
}

/**
 * The thread as one side reads it, oldest first, and the reading marked: what was unread before
 * this read is returned as `firstUnread` so the page can say where the new ones begin.
 */
export async function readDealThread(db: Db, place: DealThreadPlace): Promise<{ messages: DealMessage[]; firstUnread: number | null }> {
  const { dealId, side, messageCount, readBefore } = place;
  const rows = await db.select().from(dealMessages).where(eq(dealMessages.dealId, dealId)).orderBy(asc(dealMessages.seq));
  if (readBefore < messageCount) {
    // greatest(): a read that raced a newer read never moves the marker back.
    const column = side === "creator" ? deals.creatorReadCount : deals.sponsorReadCount;
    await db
      .update(deals)
      .set(side === "creator" ? { creatorReadCount: sql`greatest(${column}, ${messageCount})` } : { sponsorReadCount: sql`greatest(${column}, ${messageCount})` })
      .where(eq(deals.id, dealId));
  }
  return {
    messages: rows.map((row) => ({ seq: row.seq, side: row.authorSide, body: row.body, at: row.at.toISOString() })),
    firstUnread: readBefore < messageCount ? readBefore + 1 : null,
  };
}

export const DEAL_MESSAGES_PAGE_SIZE = 50;

/**
 * A page of a deal's thread for one of its sides, oldest first, after message `afterSeq` (0 for the
 * first page): `next` is the last message's number when more follow, null on the last page. Reading
 * a page marks nothing read (that is the deal page's reading); anyone else's deal is not-found.
 */
export async function dealMessagesPage(
  db: Db,
  input: { uid: string; dealId: string; afterSeq: number; pageSize?: number },
): Promise<Success<{ messages: DealMessage[]; next: number | null }> | Refusal<"not-found", "NOT_FOUND">> {
  const size = input.pageSize ?? DEAL_MESSAGES_PAGE_SIZE;
  const [deal] = await db
    .select({ id: deals.id })
    .from(deals)
    .where(and(eq(deals.id, input.dealId), or(eq(deals.creatorUid, input.uid), eq(deals.sponsorUid, input.uid))));
  if (!deal) return NO_SUCH_DEAL;
  const rows = await db
    .select()
    .from(dealMessages)
    .where(and(eq(dealMessages.dealId, deal.id), gt(dealMessages.seq, input.afterSeq)))
    .orderBy(asc(dealMessages.seq))
    .limit(size + 1);
  const page = rows.slice(0, size);
  return success({
    messages: page.map((row) => ({ seq: row.seq, side: row.authorSide, body: row.body, at: row.at.toISOString() })),
    next: rows.length > size ? page.at(-1)!.seq : null,
  });
}
