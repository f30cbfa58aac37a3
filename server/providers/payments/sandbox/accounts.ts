import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxAccounts } from "#server/providers/payments/sandbox/schema";
import type { AccountType, ConnectedAccountState } from "#server/providers/payments/port";
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
 * A new onboarding link's id, which becomes the account's only working one:
 * any link handed out before it stops working (Stripe's account links are
 * single use too). Unguessable, as it is half of what opens the form.
 */
export async function issueOnboardingLinkId(db: Db, accountId: string): Promise<string> {
  const linkId = crypto.randomBytes(18).toString("base64url");
  const [account] = await db.update(sandboxAccounts).set({ onboardingLinkId: linkId }).where(eq(sandboxAccounts.id, accountId)).returning({ id: sandboxAccounts.id });
  if (!account) throw missing("account", accountId);
  return linkId;
}

/** Whether a (signed) link with this id may still open the account's form. */
export function isCurrentOnboardingLink(account: SandboxAccount, linkId: string): boolean {
  return account.onboardingLinkId !== null && account.onboardingLinkId === linkId;
}

/**
 * The onboarding form was sent: the account can take charges and receive
 * payouts, and `account.updated` is stored in the same transaction. The link
 * is used up: with `linkId` the update happens only if that link is still the
 * current one (null otherwise, so two submits of one link change it once);
 * without (test hooks) any open link ends too.
 */
export async function completeSandboxOnboarding(db: Db, accountId: string, details: OnboardingDetails, now = new Date(), linkId?: string): Promise<ConnectedAccountState | null> {
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
        onboardingLinkId: null,
      })
      .where(linkId === undefined ? eq(sandboxAccounts.id, accountId) : and(eq(sandboxAccounts.id, accountId), eq(sandboxAccounts.onboardingLinkId, linkId)))
      .returning();
    if (!account && linkId !== undefined) return null;
    if (!account) throw missing("account", accountId);
    const state = accountState(account);
    await recordSandboxEvent(tx, { type: "account.updated", ...state }, now);
    return state;
  });
}
