import { accountTypeOf } from "#server/domains/accounts/profiles";
import { listOwnPages } from "#server/domains/bio/pages";
import type { Db } from "#server/platform/db/client";

/** Where a creator's first run starts: making their page (ending, links, then photo, theme and tips from the checklist). */
export const CREATOR_FIRST_RUN_PATH = "/app/account/bizbio/new";

/**
 * Where a person goes once their email address is verified: a creator without a page straight to
 * making it; everyone else to the home, which opens with their side's first steps (a sponsor's
 * "Browse creators" and "Post a brief") or, with no type chosen, the choice of side.
 */
export async function firstRunPath(db: Db, uid: string): Promise<string> {
  if ((await accountTypeOf(db, uid)) !== "creator") return "/app";
  return (await listOwnPages(db, uid)).length === 0 ? CREATOR_FIRST_RUN_PATH : "/app";
}
