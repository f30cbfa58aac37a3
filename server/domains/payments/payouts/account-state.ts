import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { connectedAccounts, profiles } from "#server/platform/db/schema";
import { recordMoneyFact } from "#server/domains/payments/ledger/record-money-fact";
import type { FanOutDeps } from "#server/domains/payments/notices/notice-deps";
import type { ConnectedAccountState } from "#server/providers/payments/port";

export type AccountRow = typeof connectedAccounts.$inferSelect;

/** The user's connected account row, locked until the transaction ends. */
export async function lockAccountOfUser(tx: Db, uid: string): Promise<AccountRow | null> {
  const [row] = await tx.select().from(connectedAccounts).where(eq(connectedAccounts.uid, uid)).for("update");
  return row ?? null;
}

export async function lockAccountByProviderId(tx: Db, accountId: string): Promise<AccountRow | null> {
  const [row] = await tx.select().from(connectedAccounts).where(eq(connectedAccounts.providerAccountId, accountId)).for("update");
  return row ?? null;
}

/**
 * Writes what the provider says of an account (SPEC §4): complete exactly
 * when it can take charges. The profile's payments_enabled follows it, on and
 * off; "payouts enabled" is written when it turns complete, not on every
 * report that it still is. The caller holds the row lock (lockAccount…), so
 * two reports at once see one transition.
 */
export async function applyAccountState(
  tx: Db,
  row: AccountRow,
  state: ConnectedAccountState,
  notify: FanOutDeps,
): Promise<{ completed: boolean; becameComplete: boolean; paymentsEnabledChanged: boolean }> {
  const completed = state.chargesEnabled;
  if (completed !== row.completed) {
    await tx.update(connectedAccounts).set({ completed }).where(eq(connectedAccounts.uid, row.uid));
  }
  const [profile] = await tx.select({ paymentsEnabled: profiles.paymentsEnabled }).from(profiles).where(eq(profiles.uid, row.uid));
  if (profile?.paymentsEnabled !== completed) {
    await tx
      .insert(profiles)
      .values({ uid: row.uid, paymentsEnabled: completed })
      .onConflictDoUpdate({ target: profiles.uid, set: { paymentsEnabled: completed } });
  }
  const becameComplete = completed && !row.completed;
  if (becameComplete) await recordMoneyFact(tx, { type: "payouts.enabled", uid: row.uid }, notify);
  // Bio pages show sponsorship options only while payments are on: cached guest pages must be redrawn.
  return { completed, becameComplete, paymentsEnabledChanged: (profile?.paymentsEnabled ?? false) !== completed };
}
