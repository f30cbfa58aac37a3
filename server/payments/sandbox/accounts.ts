import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { sandboxAccounts } from "#server/db/schema/sandbox";
import type { AccountType, ConnectedAccountState } from "#server/payments/provider";
import { missing, SandboxRequestError } from "./errors";
import { sandboxId } from "./ids";
import { recordSandboxEvent } from "./outbox";

export type SandboxAccount = typeof sandboxAccounts.$inferSelect;

/** Creates an Express-like connected account, not yet able to take charges; the same key returns the same account. */
export async function createSandboxAccount(
  db: Db,
  input: { idempotencyKey: string; email: string; accountType: AccountType; uid: string },
): Promise<{ accountId: string }> {
  const [created] = await db
    .insert(sandboxAccounts)
    .values({ id: sandboxId("acct"), idempotencyKey: input.idempotencyKey, email: input.email, accountType: input.accountType, uid: input.uid })
    .onConflictDoNothing({ target: sandboxAccounts.idempotencyKey })
    .returning({ id: sandboxAccounts.id });
  if (created) return { accountId: created.id };
  const [existing] = await db.select().from(sandboxAccounts).where(eq(sandboxAccounts.idempotencyKey, input.idempotencyKey));
  if (!existing) throw new SandboxRequestError("idempotency_key_in_use", "The idempotency key's first request has not finished; try again");
  if (existing.uid !== input.uid) throw new SandboxRequestError("idempotency_key_in_use", "This idempotency key was used with other parameters");
  return { accountId: existing.id };
}

export async function findSandboxAccount(db: Db, accountId: string): Promise<SandboxAccount | null> {
  const [row] = await db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, accountId));
  return row ?? null;
}

export function accountState(account: SandboxAccount): ConnectedAccountState {
  return {
    accountId: account.id,
    chargesEnabled: account.chargesEnabled,
    payoutsEnabled: account.payoutsEnabled,
    detailsSubmitted: account.detailsSubmitted,
  };
}

export async function readSandboxAccount(db: Db, accountId: string): Promise<ConnectedAccountState> {
  const account = await findSandboxAccount(db, accountId);
  if (!account) throw missing("account", accountId);
  return accountState(account);
}

export type OnboardingDetails = { legalName: string; country: "US"; bankAccount: string };

/**
 * The onboarding form was sent: the account can take charges and receive
 * payouts, and `account.updated` is stored in the same transaction.
 */
export async function completeSandboxOnboarding(db: Db, accountId: string, details: OnboardingDetails, now = new Date()): Promise<ConnectedAccountState> {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .update(sandboxAccounts)
      .set({
        legalName: details.legalName,
        country: details.country,
        bankLast4: details.bankAccount.slice(-4),
        chargesEnabled: true,
        payoutsEnabled: true,
        detailsSubmitted: true,
      })
      .where(eq(sandboxAccounts.id, accountId))
      .returning();
    if (!account) throw missing("account", accountId);
    const state = accountState(account);
    await recordSandboxEvent(tx, { type: "account.updated", ...state }, now);
    return state;
  });
}
