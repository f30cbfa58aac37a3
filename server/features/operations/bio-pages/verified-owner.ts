import type { UnverifiedEmail } from "#server/domains/accounts/verified-email";
import type { Db } from "#server/platform/db/client";
import type { AccountHolder } from "#server/features/operations/operation";
import { requireAddressVerifiedNow } from "#server/features/operations/verified-now";

/**
 * A bio page is read and changed only by an owner whose address is verified now, as the pages'
 * guard (requireVerifiedUser) has it: checked again for an API key, whose account may have changed
 * its address since the key was made.
 */
export async function asVerifiedOwner<Answer>(db: Db, caller: AccountHolder, then: () => Promise<Answer>): Promise<Answer | UnverifiedEmail> {
  const verified = await requireAddressVerifiedNow(db, caller);
  if (verified.kind === "ERROR") return verified;
  return then();
}
