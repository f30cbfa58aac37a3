import type { Db } from "#server/platform/db/client";
import { completeSandboxOnboarding, createSandboxAccount } from "./accounts";

/**
 * The demo creator's payout account, made at the sandbox as her own
 * onboarding would make it: created with the key connect.ts uses
 * (`account_<uid>`, so "Connect" later finds this same account) and onboarded,
 * so it can take charges. Its `account.updated` event goes to the sandbox's
 * outbox like any other and finds our row complete already.
 */
export async function sandboxDemoPayoutAccount(db: Db, person: { uid: string; email: string; legalName: string }, now = new Date()): Promise<string> {
  const { accountId } = await createSandboxAccount(db, { idempotencyKey: `account_${person.uid}`, email: person.email, accountType: "individual", uid: person.uid });
  await completeSandboxOnboarding(db, accountId, { legalName: person.legalName, country: "US", bankAccount: "000123456789" }, now);
  return accountId;
}
