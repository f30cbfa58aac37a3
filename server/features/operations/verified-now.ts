import { requireVerifiedEmail, type UnverifiedEmail } from "#server/domains/accounts/verified-email";
import type { Db } from "#server/platform/db/client";
import { success, type Result } from "#server/platform/errors";
import type { AccountHolder } from "./operation";

/**
 * What the public sees (posting an opportunity, a bio page) is changed only by an account whose
 * address is verified now. A person's door has just read it (their session); an API key outlives a
 * change of address, so its account is read again. One statement for a key, none for a page.
 */
export async function requireAddressVerifiedNow(db: Db, caller: AccountHolder): Promise<Result<object, UnverifiedEmail>> {
  if (caller.addressVerifiedNow) return success();
  return requireVerifiedEmail(db, caller.uid);
}
