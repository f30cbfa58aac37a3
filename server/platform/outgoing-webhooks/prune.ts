import { sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";

/** How long the delivery log keeps an event with its deliveries and attempts. */
export const WEBHOOK_HISTORY_DAYS = 30;

const BATCH = 2_000;

/**
 * Deletes events older than the window, with their deliveries and attempts (cascade), in
 * batches so that no single statement holds many locks. An event still pending somewhere (an
 * endpoint disabled a while ago keeps its deliveries waiting) or resent within the window stays.
 * Returns how many events went.
 */
export async function pruneWebhookHistory(db: Db, now: Date, keepDays = WEBHOOK_HISTORY_DAYS): Promise<number> {
  const cutoff = new Date(now.getTime() - keepDays * 24 * 3_600_000);
  let pruned = 0;
  for (;;) {
    const result = (await db.execute(sql`
      delete from webhook_events where id in (
        select ev.id from webhook_events ev
         where ev.created_at < ${cutoff}
           and not exists (select 1 from webhook_deliveries d where d.event_id = ev.id and (d.status = 'pending' or d.created_at >= ${cutoff}))
         limit ${BATCH})
      returning id`)) as unknown as { rows: unknown[] };
    pruned += result.rows.length;
    if (result.rows.length < BATCH) return pruned;
  }
}
