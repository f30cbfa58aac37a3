import type { Db } from "#server/platform/db/client";
import { accountTypeOf } from "#server/domains/accounts/profiles";

/**
 * Whether to pitch Pro to this person. Pro opens the directory of companies that sponsor creators:
 * a creator's (or an undecided person's) way to find sponsors, and nothing a sponsor needs. So a
 * sponsor account (SPEC §1: the type chosen at sign-up) is never upsold it; the plans stay open to
 * them at /app/pro, with that said.
 */
export async function pitchesProTo(db: Db, uid: string): Promise<boolean> {
  return (await accountTypeOf(db, uid)) !== "sponsor";
}
