import { requireVerifiedEmail, type UnverifiedEmail } from "#server/domains/accounts/verified-email";
import type { Db } from "#server/platform/db/client";

/**
 * A bio page is read and changed only by an owner whose address is verified now, as the pages'
 * guard (requireVerifiedUser) has it. Read from the account itself rather than trusted from the
 * door: an API key outlives a change of address, and its account may be unverified again.
 */
export async function asVerifiedOwner<Answer>(db: Db, uid: string, then: () => Promise<Answer>): Promise<Answer | UnverifiedEmail> {
  const verified = await requireVerifiedEmail(db, uid);
  if (verified.kind === "ERROR") return verified;
  return then();
}
