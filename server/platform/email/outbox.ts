import { and, desc, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { emailOutbox } from "#server/platform/db/schema/email";

export type OutboxSummary = Pick<typeof emailOutbox.$inferSelect, "id" | "to" | "subject" | "createdAt" | "meta">;
export type OutboxMessage = typeof emailOutbox.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_LIMIT = 500;

/** Newest mail first, without the bodies. */
export async function listOutbox(db: Db, { limit = 50 }: { limit?: number } = {}): Promise<OutboxSummary[]> {
  const safeLimit = Math.min(Math.max(Math.trunc(limit) || 1, 1), MAX_LIMIT);
  return db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      createdAt: emailOutbox.createdAt,
      meta: emailOutbox.meta,
    })
    .from(emailOutbox)
    // Mail waiting for (or given up by) the SMTP worker is not part of the development mailbox.
    .where(eq(emailOutbox.status, "stored"))
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(safeLimit);
}

/** One stored mail, or null when there is none; an id that is not a uuid is simply not found. */
export async function getOutboxMessage(db: Db, id: string): Promise<OutboxMessage | null> {
  // Checked here because the database would reject a malformed uuid with an error, not an empty result.
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(emailOutbox).where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, "stored"))).limit(1);
  return row ?? null;
}
