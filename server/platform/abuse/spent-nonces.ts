import { lte } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { spentCaptchaNonces } from "#server/platform/db/schema";

/**
 * Records a solved challenge's nonce; true the first time only, so one
 * solution passes once. The primary key decides between concurrent spends,
 * in this process or any other sharing the database. A nonce is kept until its
 * challenge expires: after that the challenge fails verification anyway.
 */
export async function spendNonce(db: Db, nonce: string, expiresAt: Date, now = new Date()): Promise<boolean> {
  await db.delete(spentCaptchaNonces).where(lte(spentCaptchaNonces.expiresAt, now));
  const spent = await db
    .insert(spentCaptchaNonces)
    .values({ nonce, expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: spentCaptchaNonces.nonce });
  return spent.length === 1;
}

/** Deletes the nonces of expired challenges (also done on every spend; the scheduled job keeps a quiet site tidy). */
export async function pruneSpentNonces(db: Db, now = new Date()): Promise<number> {
  const deleted = await db.delete(spentCaptchaNonces).where(lte(spentCaptchaNonces.expiresAt, now)).returning({ nonce: spentCaptchaNonces.nonce });
  return deleted.length;
}
