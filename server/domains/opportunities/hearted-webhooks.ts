import { z } from "zod";
import { and, arrayContains, count, eq, gte, isNull, lt, min, ne, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { hearts, opportunityPosts, user, webhookEndpoints, webhookEvents } from "#server/platform/db/schema";
import { queueWebhookEvent } from "#server/platform/outgoing-webhooks/queue";

export const HEARTED_BATCH_JOB = "webhook-opportunity-hearted";
export const HEARTED_BATCH_EVERY_MS = 5 * 60_000;
/**
 * A heart is stamped with its transaction's start: one still being written when a batch is cut
 * may carry a time just before the cut. Cutting this far behind the clock lets it commit first.
 */
const SETTLE_MS = 30_000;
/** However long the job was not run, a batch reaches back at most this far. */
const LOOKBACK_MS = 24 * 60 * 60 * 1000;

const TYPE = "opportunity.hearted";

/** The `data` of an opportunity.hearted event, as receivers read it (the OpenAPI document's `webhooks`). */
export const opportunityHeartedSchema = z
  .object({
    opportunity: z.object({ id: z.string(), title: z.string() }).meta({ description: "Your opportunity that was hearted." }),
    newHearts: z.int().min(1).meta({ description: "Hearts others gave it in [from, to) that are still there: a heart taken back again is not counted." }),
    totalHearts: z.int().min(0).meta({ description: "Its hearts in all, when the batch was made." }),
    from: z.iso.datetime().meta({ description: "Where this batch starts: the previous batch's `to`, so batches neither overlap nor leave gaps." }),
    to: z.iso.datetime().meta({ description: "Where this batch ends (a little before it was sent, so hearts still being written are not missed)." }),
  })
  .meta({ id: "OpportunityHearted", description: "People hearted one of your opportunities." });

export type OpportunityHeartedData = z.infer<typeof opportunityHeartedSchema>;

/**
 * The batched `opportunity.hearted` events (ADR 0057): for each person with an endpoint that
 * wants them, one event per opportunity of theirs hearted since their last batch. Their last
 * batch's `to` (in webhook_events itself) is where the next one starts, so batches neither
 * overlap nor leave gaps, whenever and however often the job runs; before a person's first
 * batch it starts when their first such endpoint was made. Each person's batch is written in one
 * transaction holding their user row, so a run cut short, or two runs at once, sends nothing
 * twice. Returns how many events it queued.
 */
export async function queueHeartedEvents(db: Db, now = new Date()): Promise<number> {
  const to = new Date(now.getTime() - SETTLE_MS);
  const subscribers = await db
    .select({ uid: webhookEndpoints.uid, since: min(webhookEndpoints.createdAt) })
    .from(webhookEndpoints)
    .where(and(isNull(webhookEndpoints.disabledAt), arrayContains(webhookEndpoints.events, [TYPE])))
    .groupBy(webhookEndpoints.uid);
  let queued = 0;
  for (const { uid, since } of subscribers) {
    queued += await db.transaction(async (tx) => {
      await tx.select({ id: user.id }).from(user).where(eq(user.id, uid)).for("update");
      const from = await batchStart(tx, uid, since ?? to, to);
      if (from >= to) return 0;
      const rows = await tx
        .select({ id: opportunityPosts.id, title: opportunityPosts.title, totalHearts: opportunityPosts.totalHearts, newHearts: count(hearts.id) })
        .from(hearts)
        .innerJoin(opportunityPosts, eq(opportunityPosts.id, hearts.postId))
        .where(and(eq(opportunityPosts.posterUid, uid), isNull(opportunityPosts.removedAt), ne(hearts.uid, uid), gte(hearts.createdAt, from), lt(hearts.createdAt, to)))
        .groupBy(opportunityPosts.id, opportunityPosts.title, opportunityPosts.totalHearts)
        .orderBy(opportunityPosts.id);
      for (const row of rows) {
        const data: OpportunityHeartedData = {
          opportunity: { id: row.id, title: row.title },
          newHearts: row.newHearts,
          totalHearts: row.totalHearts,
          from: from.toISOString(),
          to: to.toISOString(),
        };
        await queueWebhookEvent(tx, { uid, type: TYPE, orderingKey: `opportunity:${row.id}`, data, now });
      }
      return rows.length;
    });
  }
  return queued;
}

/** Where this person's next batch starts: their last batch's end (ISO strings order as times do), at most a day back. */
async function batchStart(tx: Db, uid: string, since: Date, to: Date): Promise<Date> {
  const [last] = await tx
    .select({ to: sql<string | null>`max(${webhookEvents.payload} -> 'data' ->> 'to')` })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.uid, uid), eq(webhookEvents.type, TYPE)));
  const start = last?.to ? new Date(last.to) : since;
  return new Date(Math.max(start.getTime(), to.getTime() - LOOKBACK_MS));
}
