import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "#server/platform/db/schema";

/** A delivery this process holds until `leasedUntil`, with what it takes to send it. */
export type ClaimedDelivery = {
  delivery: typeof webhookDeliveries.$inferSelect & { leasedUntil: Date };
  endpoint: typeof webhookEndpoints.$inferSelect;
  payload: unknown;
};

/** Due, free rows looked at by the quick pass: the oldest first. */
const QUICK_CANDIDATES = 64;

type Head = { id: string };

/**
 * Whether a pending row is the earliest pending one of its object at its endpoint (its "head"):
 * one probe of `webhook_deliveries_order_idx`, and only heads are ever sent.
 */
const isHead = (alias: string) =>
  sql.raw(`${alias}.event_sequence = (select min(h.event_sequence) from webhook_deliveries h
            where h.endpoint_id = ${alias}.endpoint_id and h.ordering_key = ${alias}.ordering_key and h.status = 'pending')`);

/**
 * A delivery waits, without an attempt, while its endpoint is disabled or its account suspended;
 * lifting the suspension makes it due again as it was.
 * Due by `at`'s millisecond: the database stamps rows to the microsecond (`next_attempt_at`
 * defaults to its now()) and a JS date has milliseconds, so a row queued in the same millisecond
 * as a kick would otherwise look a few microseconds early and wait for the next poll.
 */
const claimable = (alias: string, at: Date) => sql`${sql.raw(alias)}.status = 'pending' and ${sql.raw(alias)}.next_attempt_at < ${new Date(at.getTime() + 1)}
  and (${sql.raw(alias)}.leased_until is null or ${sql.raw(alias)}.leased_until <= ${at})
  and not exists (select 1 from webhook_endpoints e join "user" u on u.id = e.uid
    where e.id = ${sql.raw(alias)}.endpoint_id and (e.disabled_at is not null or u.disabled))`;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Up to `limit` heads that are due: first among the oldest due rows (the usual case: each
 * object's earliest event is also among the oldest rows); when those are all waiting behind an
 * earlier event of theirs (a long backlog of one object whose head waits for a retry), by a
 * walk over the objects that have pending rows, one index probe each.
 */
async function dueHeads(db: Db, at: Date, limit: number): Promise<string[]> {
  const quick = rowsOf<Head & { head: boolean }>(
    await db.execute(sql`select d.id, ${isHead("d")} as head from webhook_deliveries d
      where ${claimable("d", at)}
      order by d.next_attempt_at limit ${QUICK_CANDIDATES}`),
  );
  const heads = quick.filter((row) => row.head).map((row) => row.id);
  if (heads.length > 0 || quick.length < QUICK_CANDIDATES) return heads.slice(0, limit);
  const walked = rowsOf<Head>(
    await db.execute(sql`with recursive objects as (
        (select endpoint_id, ordering_key from webhook_deliveries where status = 'pending' order by endpoint_id, ordering_key, event_sequence limit 1)
        union all
        select next.endpoint_id, next.ordering_key from objects o, lateral (
          select endpoint_id, ordering_key from webhook_deliveries
           where status = 'pending' and (endpoint_id, ordering_key) > (o.endpoint_id, o.ordering_key)
           order by endpoint_id, ordering_key, event_sequence limit 1) next)
      select d.id from objects o, lateral (
        select id, next_attempt_at, leased_until, status, endpoint_id from webhook_deliveries
         where status = 'pending' and endpoint_id = o.endpoint_id and ordering_key = o.ordering_key
         order by event_sequence limit 1) d
      where ${claimable("d", at)}
      order by d.next_attempt_at limit ${limit}`),
  );
  return walked.map((row) => row.id);
}

/**
 * Claims up to `limit` due heads for this process until `at + leaseMs`: locked with
 * `for update skip locked` (rows another process is claiming right now are left to it) and
 * checked again under the lock, then read with their endpoint and payload in one query.
 */
export async function claimDue(db: Db, { at, leaseMs, limit }: { at: Date; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]> {
  const candidates = await dueHeads(db, at, limit);
  if (candidates.length === 0) return [];
  const leasedUntil = new Date(at.getTime() + leaseMs);
  const claimed = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, leasedUntil })
    .where(
      inArray(
        webhookDeliveries.id,
        sql`(select c.id from webhook_deliveries c
              where c.id in ${candidates} and ${claimable("c", at)} and ${isHead("c")}
              for update of c skip locked)`,
      ),
    )
    .returning();
  if (claimed.length === 0) return [];
  const targets = await db
    .select({ id: webhookDeliveries.id, endpoint: webhookEndpoints, payload: webhookEvents.payload })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(inArray(webhookDeliveries.id, claimed.map((row) => row.id)));
  const byId = new Map(targets.map((target) => [target.id, target]));
  return claimed
    .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime())
    .flatMap((row) => {
      const target = byId.get(row.id);
      // Cascade-deleted in between (the endpoint or the account went): nothing left to send.
      return target ? [{ delivery: { ...row, leasedUntil }, endpoint: target.endpoint, payload: target.payload }] : [];
    });
}

/** Gives claims back unattempted (a worker closing with rows it had not started). */
export async function releaseClaims(db: Db, claims: readonly ClaimedDelivery[]): Promise<void> {
  for (const { delivery } of claims) {
    await db
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} - 1`, leasedUntil: null })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.leasedUntil, delivery.leasedUntil)));
  }
}
